import { z } from 'zod';
import { getGithubPackage, installGithubPackage, rollbackGithubPackage, uninstallGithubPackage, githubClient } from '../../github/install/installer';
import { AppError } from '@/lib/core/errors';
import { latestRelease, listReleases } from '../../github/client/releases';
import { pickLatest } from '../../github/updates/versions';
import { recoverGithubInstalls } from '../../github/install/recovery';
import { githubInstallParams, githubRepairParams, githubRollbackParams, githubUninstallParams, githubUpdateParams } from '../../github/schemas';
import { loadGithubContext } from '../../github/service';
import type { GithubOverrides } from '../../github/types';
import { dropUpdates, packageLockKey, settleUpdate } from '../../packages';
import type { JobContext, JobKind } from '../types';

async function context(ctx: JobContext<unknown>) {
  const services = await ctx.services();
  const g = await loadGithubContext(services.database.db, services.secrets, {
    runtimeDir: services.config.runtimeDir,
    actor: ctx.job.createdByLabel,
    jobId: ctx.job.id,
    signal: ctx.signal,
    log: (l) => ctx.log(l, 'info'),
    progress: (p, s) => ctx.progress(p, s),
    version: services.version,
  });
  const locked = <T>(repo: string, fn: () => Promise<T>) => {
    ctx.progress(2, 'waiting for the package lock');
    return services.database.withLock(packageLockKey({ raw: '', manager: 'github', name: repo }), () => {
      if (ctx.signal.aborted) throw new AppError('already_running', 'Canceled while waiting for the package lock.');
      return fn();
    });
  };
  return { g, locked, db: services.database.db };
}

async function recordOf(db: Awaited<ReturnType<typeof context>>['db'], name: string) {
  const row = await getGithubPackage(db, name);
  if (!row) throw new AppError('release_not_found', `${name} is not installed from GitHub.`);
  return row;
}

const kind = <P>(name: string, title: (p: P) => string, params: z.ZodType<P>, run: (ctx: JobContext<P>) => Promise<unknown>): JobKind<P> => ({
  kind: name,
  title,
  params,
  concurrency: 2,
  maxAttempts: 1,
  resumable: false,
  run,
});

export const githubInstallJob = kind('github.install', (p) => `Install github:${p.repo}${p.tag ? `@${p.tag}` : ''}`, githubInstallParams, async (ctx) => {
  const { g, locked } = await context(ctx);
  return locked(ctx.params.repo, () => installGithubPackage(g, ctx.params));
});

/** Updates to `toTag`, or to the newest release of the package's channel; no downgrade, no-op when current. */
export const githubUpdateJob = kind('github.update', (p) => `Update github:${p.name}${p.toTag ? ` → ${p.toTag}` : ''}`, githubUpdateParams, async (ctx) => {
  const { g, locked, db } = await context(ctx);
  const row = await recordOf(db, ctx.params.name);
  try {
    return await locked(row.repo, async () => {
      let tag = ctx.params.toTag;
      if (!tag) {
        const client = githubClient(g);
        tag =
          row.channel === 'prerelease'
            ? pickLatest((await listReleases(client, row.repo, { limit: 100, signal: ctx.signal })).releases.map((r) => ({ ...r, tag: r.tag_name, publishedAt: r.published_at ?? r.created_at })), { channel: 'prerelease' })?.tag
            : (await latestRelease(client, row.repo, ctx.signal)).release.tag_name;
      }
      if (!tag) throw new AppError('no_update_known', `No release of ${row.repo} is newer than ${row.tag}.`);
      if (tag === row.tag) {
        ctx.log(`${row.name} is already at ${tag}.`, 'info');
        return { name: row.name, fromVersion: row.tag, toVersion: tag };
      }
      const m = await installGithubPackage(g, { repo: row.repo, tag, overrides: row.overrides as GithubOverrides });
      await settleUpdate(db, { source: 'github', name: row.name, jobId: ctx.job.id, toVersion: m.tag });
      return { name: m.name, fromVersion: row.tag, toVersion: m.tag, manager: 'github' };
    });
  } catch (e) {
    await settleUpdate(db, { source: 'github', name: row.name, jobId: ctx.job.id, error: (e as Error).message }).catch(() => undefined);
    throw e;
  }
});

export const githubRollbackJob = kind('github.rollback', (p) => `Roll back github:${p.name} to ${p.version}`, githubRollbackParams, async (ctx) => {
  const { g, locked, db } = await context(ctx);
  const row = await recordOf(db, ctx.params.name);
  return locked(row.repo, () => rollbackGithubPackage(g, row.name, ctx.params.version));
});

export const githubUninstallJob = kind('github.uninstall', (p) => `Uninstall github:${p.name}`, githubUninstallParams, async (ctx) => {
  const { g, locked, db } = await context(ctx);
  const row = await recordOf(db, ctx.params.name);
  return locked(row.repo, async () => {
    const r = await uninstallGithubPackage(g, row.name);
    await dropUpdates(db, 'github', row.name);
    return r;
  });
});

/** Runs the crash recovery on demand ("Repair"); at boot it runs before the worker starts. */
export const githubRepairJob = kind('github.repair', () => 'Repair GitHub-release installs', githubRepairParams, async (ctx) => {
  const { g } = await context(ctx);
  const actions = await recoverGithubInstalls(g.db, g.runtimeDir);
  for (const a of actions) ctx.log(`${a.action}: ${a.path}`, 'info');
  if (!actions.length) ctx.log('Nothing to repair: the files and the records agree.', 'info');
  return { actions };
});
