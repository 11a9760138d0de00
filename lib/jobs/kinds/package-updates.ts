import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { jobs } from '@/db/schema';
import { systemActor } from '../../auth/actor';
import { AppError } from '../../core/errors';
import { loadGithubContext } from '../../github/service';
import { githubOutdated } from '../../github/updates/updates';
import { createNpmRegistryCache, type NpmRegistryCache } from '../../runtime';
import { loadPackageContext, refreshUpdates, UPDATE_ALL_KIND, UPDATE_CHECK_KIND, INSTALL_DEPS_KIND, type PackageOpResult, type SourceCheck } from '../../packages';
import { cancelJob, isFinal } from '../queue';
import type { JobContext, JobKind } from '../types';

const g = globalThis as unknown as { __skilldockNpmCache?: NpmRegistryCache };
/** One registry cache per process, so repeated checks send conditional requests. */
const npmCache = (g.__skilldockNpmCache ??= createNpmRegistryCache());

function describeCheck(c: SourceCheck): string {
  if (!c.ok) return `${c.source}: check failed, previous results kept — ${c.error}`;
  const errors = c.errors.length ? `; ${c.errors.length} package(s) could not be checked (kept as they were): ${c.errors.map((e) => `${e.name}: ${e.message}`).join('; ')}` : '';
  return `${c.source}: ${c.outdated.length} update(s)${c.outdated.length ? ` — ${c.outdated.map((o) => `${o.name} ${o.current} → ${o.latest}`).join(', ')}` : ''}${errors}`;
}

/** Checks pip, npm and the system manager for updates of managed packages and merges the results. */
export const updateCheckJob: JobKind<Record<string, never>> = {
  kind: UPDATE_CHECK_KIND,
  title: () => 'Check for package updates',
  params: z.strictObject({}),
  concurrency: 1,
  maxAttempts: 1,
  resumable: true,
  async run(ctx) {
    const services = await ctx.services();
    const mctx = await loadPackageContext(services.database.db, services.config.runtimeDir, { signal: ctx.signal, log: (l, s) => ctx.log(l, s) });
    ctx.progress(5, 'checking');
    let done = 0;
    const github = await loadGithubContext(services.database.db, services.secrets, { runtimeDir: services.config.runtimeDir, actor: ctx.job.createdByLabel, version: services.version });
    const summary = await refreshUpdates(services.database, mctx, {
      npmCache,
      github: (signal) => githubOutdated({ ...github, signal }),
      onSource: (c) => {
        done++;
        ctx.log(describeCheck(c), c.ok ? 'info' : 'stderr');
        ctx.progress(5 + Math.round((done / 4) * 90), `checked ${c.source}`);
      },
    });
    ctx.log(`${summary.pending} pending update(s) in total.`, 'info');
    return summary;
  },
};

const updateAllParams = z.strictObject({
  items: z.array(z.strictObject({ spec: z.string().max(256), from: z.string().max(128), to: z.string().max(256) })).min(1).max(500),
});
type UpdateAllParams = z.infer<typeof updateAllParams>;

export interface UpdateAllRow {
  spec: string;
  jobId: string;
  state: string;
  fromVersion: string | null;
  toVersion: string | null;
  error: string | null;
}

const POLL_MS = 500;

/** The spec a child job works on: package.* jobs carry it; github.* jobs carry a repo or a name. */
function childSpec(params: unknown): string {
  const p = params as { spec?: string; repo?: string; tag?: string; name?: string };
  if (p.spec) return p.spec;
  if (p.repo) return `github:${p.repo}${p.tag ? `@${p.tag}` : ''}`;
  return `github:${p.name ?? '?'}`;
}

async function waitForChildren(ctx: JobContext<UpdateAllParams>): Promise<UpdateAllRow[]> {
  const db = ctx.database.db;
  const reported = new Set<string>();
  for (;;) {
    const children = await db.select({ id: jobs.id, state: jobs.state, params: jobs.params, result: jobs.result, error: jobs.error }).from(jobs).where(eq(jobs.parentId, ctx.job.id));
    const rows = children.map((c) => {
      const r = (c.result ?? null) as PackageOpResult | null;
      return { spec: childSpec(c.params), jobId: c.id, state: c.state, fromVersion: r?.fromVersion ?? null, toVersion: r?.toVersion ?? null, error: c.error };
    });
    for (const r of rows) {
      if (!isFinal(r.state) || reported.has(r.jobId)) continue;
      reported.add(r.jobId);
      if (r.state === 'succeeded') ctx.log(`✓ ${r.spec}: ${r.fromVersion ?? '?'} → ${r.toVersion ?? '?'}`, 'info');
      else ctx.log(`✗ ${r.spec}: ${r.state} — ${r.error ?? 'no reason recorded'}`, 'stderr');
    }
    const ended = rows.filter((r) => isFinal(r.state)).length;
    ctx.progress(Math.round((ended / Math.max(rows.length, 1)) * 100), `${ended} of ${rows.length} done`);
    if (ended === rows.length) return rows.sort((a, b) => a.spec.localeCompare(b.spec));
    if (ctx.signal.aborted) {
      const open = rows.filter((r) => !isFinal(r.state)).map((r) => r.jobId);
      const actor = { ...systemActor, label: `${ctx.job.createdByLabel} (Update All canceled)` };
      for (const id of open) await cancelJob(ctx.database, actor, id).catch(() => undefined);
      throw new AppError('invalid_state', 'Update All was canceled; the updates still running were asked to stop.');
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

/**
 * A parent job (Update All, install missing deps): follows its children and reports each package's
 * outcome; failures never stop the others.
 */
function batchParent(kind: string, noun: string, describe: (i: UpdateAllParams['items'][number]) => string): JobKind<UpdateAllParams> {
  return {
    kind,
    title: (p) => `${noun}: ${p.items.length} package${p.items.length === 1 ? '' : 's'}`,
    params: updateAllParams,
    concurrency: 2,
    maxAttempts: 1,
    // Only waits on its children (which hold their own state), so it can pick up where it left off after a crash.
    resumable: true,
    async run(ctx) {
      ctx.log(`${noun}: ${ctx.params.items.map(describe).join(', ')}`, 'info');
      const rows = await waitForChildren(ctx);
      const failed = rows.filter((r) => r.state !== 'succeeded');
      const result = { items: rows, succeeded: rows.length - failed.length, failed: failed.length };
      ctx.progress(100, `${result.succeeded} done, ${result.failed} failed`);
      if (failed.length) {
        throw new AppError('conflict', `${failed.length} of ${rows.length} failed: ${failed.map((f) => `${f.spec} (${f.error ?? f.state})`).join('; ')}`, { details: { jobResult: result } });
      }
      return result;
    },
  };
}

export const updateAllJob = batchParent(UPDATE_ALL_KIND, 'Update all', (i) => `${i.spec} ${i.from} → ${i.to}`);
export const installDepsJob = batchParent(INSTALL_DEPS_KIND, 'Install missing dependencies', (i) => i.spec);
