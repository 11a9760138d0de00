// The gateways' job kinds: a sync (fast: config and folders), and a verify that asks the gateway
// itself (slow: its CLI or RPC per agent), queued after a sync that changed something.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '@/db/client';
import { jobs } from '@/db/schema';
import type { Actor } from '../auth/actor';
import { jobActor } from '../jobs/job-actor';
import { defineJobKind, type JobKind } from '../jobs/kind';
import { enqueue } from '../jobs/queue';
import type { JobRegistry } from '../jobs/registry';
import type { GatewaysService } from './service';
import { loadGateway, recordGatewayState } from './store';
import { runSync } from './sync';

const params = z.strictObject({ gatewayId: z.string().min(1).max(64), reason: z.string().max(200).optional() });
type Params = z.output<typeof params>;

export interface SyncJobResult {
  changes: number;
  written: boolean;
  readOnly: boolean;
  configChanges: string[];
  folders: { op: string; name: string; why: string }[];
  conflicts: string[];
  notes: string[];
  patch: string;
}

export const gatewaySyncJob: JobKind<Params, SyncJobResult> = defineJobKind({
  name: 'gateway.sync',
  title: (p) => `Sync a gateway${p.reason ? ` (${p.reason})` : ''}`,
  params,
  concurrency: 4,
  maxAttempts: 2,
  backoffMs: () => 2000,
  // A sync plans from what it reads, so running it again from the start is always safe.
  resumable: true,
  retryPermission: 'gateways.write',
});

export const gatewayVerifyJob: JobKind<Params, { count: number }> = defineJobKind({
  name: 'gateway.verify',
  title: () => 'Ask a gateway which skills its agents see',
  params,
  concurrency: 2,
  maxAttempts: 1,
  resumable: true,
  retryPermission: 'gateways.read',
});

/** A queued or running job of `kind` for this gateway, if any (syncs and verifies are coalesced). */
async function pendingJob(database: Database, kind: string, gatewayId: string): Promise<string | null> {
  const [r] = await database.db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.kind, kind), inArray(jobs.state, ['queued']), sql`${jobs.params}->>'gatewayId' = ${gatewayId}`))
    .limit(1);
  return r?.id ?? null;
}

export async function queueSync(database: Database, actor: Actor, gatewayId: string, reason: string) {
  const queued = await pendingJob(database, gatewaySyncJob.name, gatewayId);
  if (queued) return { id: queued, coalesced: true };
  const row = await enqueue(database, actor, gatewaySyncJob, { gatewayId, reason }, { trusted: true });
  return { id: row.id, coalesced: false };
}

export async function queueVerify(database: Database, actor: Actor, gatewayId: string) {
  const queued = await pendingJob(database, gatewayVerifyJob.name, gatewayId);
  if (queued) return { id: queued, coalesced: true };
  const row = await enqueue(database, actor, gatewayVerifyJob, { gatewayId }, { trusted: true });
  return { id: row.id, coalesced: false };
}

export function registerGatewayJobs(registry: JobRegistry, svc: GatewaysService) {
  registry.register(gatewaySyncJob, async (ctx) => {
    const row = await loadGateway(svc.deps.db, ctx.params.gatewayId);
    const key = await svc.desiredKey(row);
    ctx.progress(5, 'reading the gateway');
    const at = new Date().toISOString();
    try {
      const out = await svc.withAccess(row, (a) => runSync(svc.desiredDeps, svc.syncTarget(row, a), { log: (l) => ctx.log(l), signal: ctx.signal }));
      const message =
        out.readOnly && Object.keys(out.plan.patch).length
          ? 'read-only gateway: patch produced for the deployment system'
          : out.changes
            ? `${out.changes} change(s) written`
            : 'already in sync';
      ctx.log(message);
      await recordGatewayState(svc.deps.db, row.id, {
        lastSync: { at, jobId: ctx.job.id, ok: true, changes: out.changes, message },
        owned: out.plan.owned,
        syncedKey: key,
      });
      if (out.changes || ctx.params.reason === 'sync now') await queueVerify(ctx.database, jobActor(ctx.job), row.id);
      return {
        changes: out.changes,
        written: out.written,
        readOnly: out.readOnly,
        configChanges: out.plan.configChanges,
        folders: out.plan.folders,
        conflicts: out.plan.conflicts,
        notes: out.plan.notes,
        patch: out.maskedPatchText,
      };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      await recordGatewayState(svc.deps.db, row.id, { lastSync: { at, jobId: ctx.job.id, ok: false, changes: 0, message }, syncedKey: key });
      throw e;
    }
  });
  registry.register(gatewayVerifyJob, async (ctx) => {
    ctx.progress(10, 'asking the gateway');
    const drift = await svc.checkDrift(ctx.params.gatewayId);
    ctx.log(drift.count ? `${drift.count} difference(s)` : 'in sync');
    for (const a of drift.agents) for (const d of a.differences) ctx.log(`${a.agentId} · ${d.skill}: Skilldock ${d.ours.why}; gateway ${d.theirs.why}`);
    for (const p of drift.pending) ctx.log(`pending: ${p}`);
    return { count: drift.count };
  });
}
