import type { z } from 'zod';
import { AppError } from '../../core/errors';
import {
  checkSpec,
  dropUpdates,
  forgetInstalled,
  installPackageInput,
  loadPackageContext,
  packageLockKey,
  recordInstalled,
  runPackageOp,
  settleUpdate,
  systemManagerLockKey,
  uninstallPackageInput,
  updatePackageInput,
  type PackageAction,
  type PackageOpResult,
} from '../../packages';
import { detectSystemManager, specLockKey, type PackageSpec } from '../../runtime';
import type { JobContext, JobKind } from '../types';

type PackageParams = { spec: string; toVersion?: string };

const VERB: Record<PackageAction, string> = { install: 'Install', uninstall: 'Uninstall', update: 'Update' };

/** The update source a spec belongs to, as the updates table names it. */
function sourceOf(spec: PackageSpec): string {
  if (spec.manager === 'system') return spec.systemManager ?? detectSystemManager() ?? 'apt';
  return spec.manager;
}

async function runPackageJob(ctx: JobContext<PackageParams>, action: PackageAction): Promise<PackageOpResult> {
  const services = await ctx.services();
  const db = services.database.db;
  // The params were checked when the job was queued; parse again, as the grammar is the only gate to argv.
  const checked = checkSpec(ctx.params.spec, action);
  if ('message' in checked) throw new AppError('validation', checked.message);
  const { spec } = checked;
  const actor = ctx.job.createdByLabel;
  const mctx = await loadPackageContext(db, services.config.runtimeDir, { signal: ctx.signal, log: (line, stream) => ctx.log(line, stream), actor });
  const system = spec.manager === 'system' ? detectSystemManager() : null;
  ctx.progress(2, 'waiting for the package lock');
  ctx.log(`[skilldock] waiting for the lock on ${specLockKey(spec)}${system ? ` and on ${system}` : ''}`, 'info');
  const op = async () => {
    // A job canceled while it waited must not start once the lock is free.
    if (ctx.signal.aborted) throw new AppError('invalid_state', 'Canceled while waiting for the package lock.');
    ctx.log(`[skilldock] ${action} ${spec.raw} in ${mctx.runtimeDir}`, 'info');
    const result = await runPackageOp(mctx, action, spec, { toVersion: ctx.params.toVersion, progress: (p, s) => ctx.progress(p, s) });
    if (action === 'uninstall') {
      await forgetInstalled(db, result.manager, result.name);
      await dropUpdates(db, result.manager, result.name);
    } else if (result.toVersion) {
      await recordInstalled(db, { manager: result.manager, name: result.name, version: result.toVersion, actor, jobId: ctx.job.id });
      await settleUpdate(db, { source: result.manager, name: result.name, jobId: ctx.job.id, toVersion: result.toVersion });
    }
    ctx.progress(100, 'done');
    return result;
  };
  try {
    return await services.database.withLock(packageLockKey(spec), () => (system ? services.database.withLock(systemManagerLockKey(system), op) : op()));
  } catch (e) {
    // The reason stays on the updates row, so Update All's failures remain visible after the job.
    if (action === 'update') await settleUpdate(db, { source: sourceOf(spec), name: spec.name, jobId: ctx.job.id, error: (e as Error).message }).catch(() => undefined);
    throw e;
  }
}

function packageJob<P extends PackageParams>(action: PackageAction, params: z.ZodType<P>): JobKind<P> {
  return {
    kind: `package.${action}`,
    title: (p) => `${VERB[action]} ${p.spec}${p.toVersion ? ` → ${p.toVersion}` : ''}`,
    params,
    concurrency: 2,
    maxAttempts: 1,
    resumable: false,
    run: (ctx) => runPackageJob(ctx, action),
  };
}

/** Started only by the packages routes (after their packages.write check), never through POST /api/v1/jobs. */
export const packageInstallJob = packageJob('install', installPackageInput);
export const packageUninstallJob = packageJob('uninstall', uninstallPackageInput);
export const packageUpdateJob = packageJob('update', updatePackageInput);
