import { desc, like } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { jobs } from '@/db/schema';

/** Recent package jobs (install, update, uninstall, Update All, checks) with how long each took. */
export async function packageHistory(db: AppDb, limit: number) {
  const rows = await db
    .select({
      id: jobs.id,
      kind: jobs.kind,
      title: jobs.title,
      state: jobs.state,
      createdBy: jobs.createdByLabel,
      createdAt: jobs.createdAt,
      startedAt: jobs.startedAt,
      finishedAt: jobs.finishedAt,
    })
    .from(jobs)
    .where(like(jobs.kind, 'package.%'))
    .orderBy(desc(jobs.createdAt))
    .limit(limit);
  return {
    items: rows.map((r) => ({
      id: r.id,
      kind: r.kind,
      title: r.title,
      state: r.state,
      createdBy: r.createdBy,
      createdAt: r.createdAt.toISOString(),
      startedAt: r.startedAt?.toISOString() ?? null,
      durationMs: r.startedAt && r.finishedAt ? r.finishedAt.getTime() - r.startedAt.getTime() : null,
    })),
  };
}
