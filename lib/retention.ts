import 'server-only';
import { sql } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { recordAudit } from './audit/audit';
import { pruneAudit } from './audit/retention';
import { systemActor } from './auth/actor';
import { logger } from './core/logger';
import { pruneFinishedJobs } from './jobs/retention';
import { type ArtifactLimits, artifactLimits } from './sandbox/artifacts/limits';
import { pruneArtifacts } from './sandbox/artifacts/retention';

const DAY_MS = 86_400_000;

export interface RetentionPolicy {
  /** Finished jobs and their logs are kept this many days. */
  jobDays: number;
  /** Audit records are kept this many days. */
  auditDays: number;
  /** Login throttle window: a failure count whose window and lock have both ended is spent. */
  throttleWindowMs: number;
  /** Collected sandbox artifacts: collections kept per config and their age limit (constants unless given). */
  artifacts?: Partial<Pick<ArtifactLimits, 'keepPerConfig' | 'maxAgeDays'>>;
}

export interface SweepResult {
  jobs: number;
  audit: number;
  throttles: number;
  /** Artifact collections (and the blobs only they named) removed. */
  artifacts: number;
  artifactBlobs: number;
}

/**
 * Deletes what outlived its retention: finished jobs with their logs, audit records, spent login
 * throttles (remembered clients, which carry no failures, stay). The sweep itself is audited.
 */
export async function sweepRetention(database: Database, policy: RetentionPolicy, now = new Date()): Promise<SweepResult> {
  const jobs = await pruneFinishedJobs(database, new Date(now.getTime() - policy.jobDays * DAY_MS));
  const audit = await pruneAudit(database, new Date(now.getTime() - policy.auditDays * DAY_MS));
  const spent = new Date(now.getTime() - policy.throttleWindowMs).toISOString();
  const [t] = await database.rows<{ n: number }>(
    sql`with d as (delete from login_throttle where failures > 0 and window_started_at < ${spent}::timestamptz and (locked_until is null or locked_until < ${now.toISOString()}::timestamptz) returning 1) select count(*)::int as n from d`,
  );
  const lim = artifactLimits(policy.artifacts);
  const art = await pruneArtifacts(database.db, lim, now);
  const result = { jobs, audit, throttles: Number(t?.n ?? 0), artifacts: art.collections, artifactBlobs: art.blobs };
  if (jobs || audit || result.throttles || result.artifacts) {
    await recordAudit(database.db, systemActor, {
      action: 'retention.sweep',
      targetType: 'system',
      after: { ...result, jobDays: policy.jobDays, auditDays: policy.auditDays, artifactKeep: lim.keepPerConfig, artifactDays: lim.maxAgeDays },
    });
  }
  return result;
}

/** Sweeps now and then once a day; returns the stop function. */
export function startRetentionSweeper(database: Database, policy: RetentionPolicy, everyMs = DAY_MS): () => void {
  let running = false;
  const sweep = () => {
    if (running) return;
    running = true;
    sweepRetention(database, policy)
      .then((r) => (r.jobs || r.audit || r.throttles || r.artifacts) && logger.info('retention sweep', { ...r }))
      .catch((e) => logger.warn('retention sweep failed', { error: String(e) }))
      .finally(() => (running = false));
  };
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  sweep();
  return () => clearInterval(timer);
}
