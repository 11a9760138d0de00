import { AppError } from '../core/errors';
import type { JobHandler } from '../jobs/kind';
import type { JobContext } from '../jobs/types';
import { detectSystemManager, type PackageSpec, specLockKey } from '../runtime';
import { type PackageRuntime, packageLockKey, systemManagerLockKey } from './context';
import { type PackageOpResult, runPackageOp } from './operations';
import { forgetInstalled, recordInstalled } from './records';
import { checkSpec, type PackageAction } from './schemas';
import { dropUpdates, recheckPackage, settleUpdate } from './updates';

type PackageParams = { spec: string; toVersion?: string };

/** The update source a spec belongs to, as the updates table names it. */
function sourceOf(spec: PackageSpec): string {
  if (spec.manager === 'system') return spec.systemManager ?? detectSystemManager() ?? 'apt';
  return spec.manager;
}

async function runPackageJob(runtime: PackageRuntime, ctx: JobContext<PackageParams>, action: PackageAction): Promise<PackageOpResult> {
  const { database } = ctx;
  const db = database.db;
  // The params were checked when the job was queued; parse again, as the grammar is the only gate to argv.
  const checked = checkSpec(ctx.params.spec, action);
  if ('message' in checked) throw new AppError('validation', checked.message);
  const { spec } = checked;
  const actor = ctx.job.createdByLabel;
  const mctx = await runtime.loadContext(db, { signal: ctx.signal, log: (line, stream) => ctx.log(line, stream), actor });
  const system = spec.manager === 'system' ? detectSystemManager() : null;
  ctx.progress(2, 'waiting for the package lock');
  ctx.log(`[skilldock] waiting for the lock on ${specLockKey(spec)}${system ? ` and on ${system}` : ''}`, 'info');
  const op = async () => {
    // A job canceled while it waited must not start once the lock is free.
    if (ctx.signal.aborted) throw new AppError('invalid_state', 'Canceled while waiting for the package lock.');
    ctx.log(`[skilldock] ${action} ${spec.raw} in ${mctx.runtimeDir}`, 'info');
    const result = await runPackageOp(mctx, action, spec, {
      toVersion: ctx.params.toVersion,
      progress: (p, s) => ctx.progress(p, s),
      changed: () => runtime.changed(),
    });
    if (action === 'uninstall') {
      await forgetInstalled(db, result.manager, result.name);
      await dropUpdates(db, result.manager, result.name);
    } else if (result.toVersion) {
      await recordInstalled(db, { manager: result.manager, name: result.name, version: result.toVersion, actor, jobId: ctx.job.id });
      await settleUpdate(db, { source: result.manager, name: result.name, jobId: ctx.job.id, toVersion: result.toVersion });
      // An install can land an older version than the latest: ask the index now rather than waiting for the next check.
      ctx.progress(95, 'checking for a newer version');
      const recheck = await recheckPackage(db, mctx, result.manager, result.name).catch((e: Error) => ({ ok: false as const, error: e.message }));
      if (!recheck.ok) ctx.log(`[skilldock] could not check ${result.name} for a newer version: ${recheck.error}`, 'info');
    }
    ctx.progress(100, 'done');
    return result;
  };
  try {
    return await database.withLock(packageLockKey(spec), () => (system ? database.withLock(systemManagerLockKey(system), op) : op()));
  } catch (e) {
    // The reason stays on the updates row, so Update All's failures remain visible after the job.
    if (action === 'update')
      await settleUpdate(db, { source: sourceOf(spec), name: spec.name, jobId: ctx.job.id, error: (e as Error).message }).catch(() => undefined);
    throw e;
  }
}

/** The handler of package.install, package.uninstall or package.update (pip, npm, system). */
export const packageJobHandler =
  (runtime: PackageRuntime, action: PackageAction): JobHandler<PackageParams, PackageOpResult> =>
  (ctx) =>
    runPackageJob(runtime, ctx, action);
