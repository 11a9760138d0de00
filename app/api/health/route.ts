import { getServices } from '@/lib/services';

/** Liveness and readiness for load balancers: answers 200 once the database is migrated. */
export async function GET() {
  const s = await getServices();
  await s.database.rows((await import('drizzle-orm')).sql`select 1`);
  return Response.json({ ok: true, version: s.version });
}
