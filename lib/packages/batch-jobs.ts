import { systemActor } from '../auth/actor';
import { AppError } from '../core/errors';
import { loadGithubContext } from '../github/service';
import { githubOutdated } from '../github/updates/updates';
import { waitForChildren } from '../jobs/children';
import type { JobEventHub } from '../jobs/hub';
import type { JobHandler } from '../jobs/kind';
import { cancelJob, isFinal } from '../jobs/queue';
import type { JobRow } from '../jobs/types';
import type { SecretBox } from '../secrets/crypto';
import type { PackageRuntime } from './context';
import type { BatchParams, BatchResult, BatchRow } from './job-kinds';
import type { PackageOpResult } from './operations';
import { type RefreshSummary, refreshUpdates } from './updates';
import type { SourceCheck, UpdateSource } from './updates-merge';

function describeCheck(c: SourceCheck): string {
  if (!c.ok) return `${c.source}: check failed, previous results kept — ${c.error}`;
  const errors = c.errors.length
    ? `; ${c.errors.length} package(s) could not be checked (kept as they were): ${c.errors.map((e) => `${e.name}: ${e.message}`).join('; ')}`
    : '';
  return `${c.source}: ${c.outdated.length} update(s)${c.outdated.length ? ` — ${c.outdated.map((o) => `${o.name} ${o.current} → ${o.latest}`).join(', ')}` : ''}${errors}`;
}

/** Checks pip, npm, the system manager and GitHub releases, and merges the results into the updates table. */
export function updateCheckHandler(deps: {
  runtime: PackageRuntime;
  secrets: SecretBox;
  version: string;
}): JobHandler<{ sources?: UpdateSource[] }, RefreshSummary> {
  return async (ctx) => {
    const db = ctx.database.db;
    const mctx = await deps.runtime.loadContext(db, { signal: ctx.signal, log: (l, s) => ctx.log(l, s) });
    ctx.progress(5, 'checking');
    let done = 0;
    const github = await loadGithubContext(db, deps.secrets, { runtimeDir: deps.runtime.runtimeDir, actor: ctx.job.createdByLabel, version: deps.version });
    const summary = await refreshUpdates(ctx.database, mctx, {
      npmCache: deps.runtime.npmCache,
      github: (signal) => githubOutdated({ ...github, signal }),
      onSource: (c) => {
        done++;
        ctx.log(describeCheck(c), c.ok ? 'info' : 'stderr');
        ctx.progress(5 + Math.round((done / 4) * 90), `checked ${c.source}`);
      },
    });
    ctx.log(`${summary.pending} pending update${summary.pending === 1 ? '' : 's'} in total.`, 'info');
    return summary;
  };
}

/** The spec a child job works on: package.* jobs carry it; github.* jobs carry a repo or a name. */
function childSpec(params: unknown): string {
  const p = params as { spec?: string; repo?: string; tag?: string; name?: string };
  if (p.spec) return p.spec;
  if (p.repo) return `github:${p.repo}${p.tag ? `@${p.tag}` : ''}`;
  return `github:${p.name ?? '?'}`;
}

function childRow(c: JobRow): BatchRow {
  const r = (c.result ?? null) as Partial<PackageOpResult> | null;
  return { spec: childSpec(c.params), jobId: c.id, state: c.state, fromVersion: r?.fromVersion ?? null, toVersion: r?.toVersion ?? null, error: c.error };
}

/**
 * A parent job (Update All, install missing deps): waits for its children on the job bus, logs each
 * outcome as it lands, and reports them all; failures never stop the others.
 */
export function batchHandler(deps: {
  hub: JobEventHub;
  noun: string;
  describe: (i: BatchParams['items'][number]) => string;
}): JobHandler<BatchParams, BatchResult> {
  return async (ctx) => {
    ctx.log(`${deps.noun}: ${ctx.params.items.map(deps.describe).join(', ')}`, 'info');
    const reported = new Set<string>();
    const children = await waitForChildren(ctx.database, deps.hub, ctx.job.id, {
      signal: ctx.signal,
      onChange: (rows) => {
        for (const r of rows.map(childRow)) {
          if (!isFinal(r.state) || reported.has(r.jobId)) continue;
          reported.add(r.jobId);
          if (r.state === 'succeeded') ctx.log(`✓ ${r.spec}: ${r.fromVersion ?? '?'} → ${r.toVersion ?? '?'}`, 'info');
          else ctx.log(`✗ ${r.spec}: ${r.state} — ${r.error ?? 'no reason recorded'}`, 'stderr');
        }
        const ended = rows.filter((r) => isFinal(r.state)).length;
        ctx.progress(Math.round((ended / Math.max(rows.length, 1)) * 100), `${ended} of ${rows.length} done`);
      },
    });
    const rows = children.map(childRow).sort((a, b) => a.spec.localeCompare(b.spec));
    const open = rows.filter((r) => !isFinal(r.state));
    if (open.length) {
      // Woken by the cancel: stop the children still queued or running.
      const actor = { ...systemActor, label: `${ctx.job.createdByLabel} (${deps.noun} canceled)` };
      for (const r of open) await cancelJob(ctx.database, actor, r.jobId).catch(() => undefined);
      throw new AppError('invalid_state', `${deps.noun} was canceled; the jobs still running were asked to stop.`);
    }
    const failed = rows.filter((r) => r.state !== 'succeeded');
    const result = { items: rows, succeeded: rows.length - failed.length, failed: failed.length };
    ctx.progress(100, `${result.succeeded} done, ${result.failed} failed`);
    if (failed.length) {
      throw new AppError('conflict', `${failed.length} of ${rows.length} failed: ${failed.map((f) => `${f.spec} (${f.error ?? f.state})`).join('; ')}`, {
        details: { jobResult: result },
      });
    }
    return result;
  };
}
