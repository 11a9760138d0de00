import type { z } from 'zod';
import { AppError } from '../core/errors';
import { getGithubPackage, githubClient, installGithubPackage, rollbackGithubPackage, uninstallGithubPackage } from '../github/install/installer';
import { githubJobLocks } from '../github/install/locks';
import { recoverGithubInstalls } from '../github/install/recovery';
import type { githubInstallParams, githubRepairParams, githubRollbackParams, githubUninstallParams, githubUpdateParams } from '../github/schemas';
import { loadGithubContext } from '../github/service';
import type { GithubOverrides } from '../github/types';
import { newestRelease } from '../github/updates/newest';
import type { JobHandler } from '../jobs/kind';
import type { JobContext } from '../jobs/types';
import type { SecretBox } from '../secrets/crypto';
import type { PackageRuntime } from './context';
import { dropUpdates, settleUpdate } from './updates';

export interface GithubJobDeps {
  runtime: PackageRuntime;
  secrets: SecretBox;
  /** The app version, sent in the User-Agent. */
  version: string;
}

type Handler<S extends z.ZodType> = JobHandler<z.output<S>, unknown>;

async function context(deps: GithubJobDeps, ctx: JobContext<unknown>) {
  const db = ctx.database.db;
  const g = await loadGithubContext(db, deps.secrets, {
    runtimeDir: deps.runtime.runtimeDir,
    actor: ctx.job.createdByLabel,
    jobId: ctx.job.id,
    signal: ctx.signal,
    log: (l) => ctx.log(l, 'info'),
    progress: (p, s) => ctx.progress(p, s),
    version: deps.version,
  });
  /**
   * Runs under the lock of the repository and the GitHub jobs lock (shared; exclusive for Repair);
   * what is installed may change, so the runtime is told afterwards.
   */
  const locked = async <T>(repo: string | null, fn: () => Promise<T>) => {
    ctx.progress(2, repo ? 'waiting for the package lock' : 'waiting for running GitHub jobs to finish');
    try {
      return await ctx.database.withLocks(githubJobLocks(repo ? { repo } : { exclusive: true }), () => {
        if (ctx.signal.aborted) throw new AppError('already_running', 'Canceled while waiting for the package lock.');
        return fn();
      });
    } finally {
      deps.runtime.changed();
    }
  };
  return { g: { ...g, locks: ctx.database }, locked, db };
}

async function recordOf(db: Awaited<ReturnType<typeof context>>['db'], name: string) {
  const row = await getGithubPackage(db, name);
  if (!row) throw new AppError('release_not_found', `${name} is not installed from GitHub.`);
  return row;
}

export const githubInstallHandler =
  (deps: GithubJobDeps): Handler<typeof githubInstallParams> =>
  async (ctx) => {
    const { g, locked } = await context(deps, ctx);
    return locked(ctx.params.repo, () => installGithubPackage(g, ctx.params));
  };

export const githubUpdateHandler =
  (deps: GithubJobDeps): Handler<typeof githubUpdateParams> =>
  async (ctx) => {
    const { g, locked, db } = await context(deps, ctx);
    const row = await recordOf(db, ctx.params.name);
    try {
      return await locked(row.repo, async () => {
        let tag = ctx.params.toTag;
        if (!tag) {
          const client = githubClient(g);
          tag = (await newestRelease(client, row.repo, row.channel === 'prerelease' ? 'prerelease' : 'stable', ctx.signal))?.tag_name;
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
  };

export const githubRollbackHandler =
  (deps: GithubJobDeps): Handler<typeof githubRollbackParams> =>
  async (ctx) => {
    const { g, locked, db } = await context(deps, ctx);
    const row = await recordOf(db, ctx.params.name);
    return locked(row.repo, () => rollbackGithubPackage(g, row.name, ctx.params.version));
  };

export const githubUninstallHandler =
  (deps: GithubJobDeps): Handler<typeof githubUninstallParams> =>
  async (ctx) => {
    const { g, locked, db } = await context(deps, ctx);
    const row = await recordOf(db, ctx.params.name);
    return locked(row.repo, async () => {
      const r = await uninstallGithubPackage(g, row.name);
      await dropUpdates(db, 'github', row.name);
      return r;
    });
  };

export const githubRepairHandler =
  (deps: GithubJobDeps): Handler<typeof githubRepairParams> =>
  async (ctx) => {
    const { g, locked } = await context(deps, ctx);
    // Exclusive: an install in progress has files in the scratch folder that repair would remove.
    return locked(null, async () => {
      const actions = await recoverGithubInstalls(g.db, g.runtimeDir);
      for (const a of actions) ctx.log(`${a.action}: ${a.path}`, 'info');
      if (!actions.length) ctx.log('Nothing to repair: the files and the records agree.', 'info');
      return { actions };
    });
  };
