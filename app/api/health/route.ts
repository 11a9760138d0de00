import { sql } from 'drizzle-orm';
import { getServices } from '@/lib/services';

/** Readiness for load balancers: answers 200 once the database is migrated and answering. */
export async function GET() {
  const s = await getServices();
  await s.database.rows(sql`select 1`);
  return Response.json({ ok: true, version: s.version });
}
