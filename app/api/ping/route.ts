/** Liveness: answers without touching the database (readiness is /api/health). */
export function GET() {
  return Response.json({ ok: true });
}
