import type { z } from 'zod';
import { AppError } from '../../core/errors';
import {
  checkSpec,
  installPackageInput,
  packageContext,
  packageLockKey,
  runPackageOp,
  systemManagerLockKey,
  uninstallPackageInput,
  updatePackageInput,
  type PackageAction,
  type PackageOpResult,
} from '../../packages';
import { detectSystemManager, specLockKey } from '../../runtime';
import type { JobContext, JobKind } from '../types';

type PackageParams = { spec: string; toVersion?: string };

const VERB: Record<PackageAction, string> = { install: 'Install', uninstall: 'Uninstall', update: 'Update' };

async function runPackageJob(ctx: JobContext<PackageParams>, action: PackageAction): Promise<PackageOpResult> {
  const services = await ctx.services();
  // The params were checked when the job was queued; parse again, as the grammar is the only gate to argv.
  const checked = checkSpec(ctx.params.spec, action);
  if ('message' in checked) throw new AppError('VALIDATION', checked.message);
  const { spec } = checked;
  const mctx = packageContext(services.config.runtimeDir, { signal: ctx.signal, log: (line, stream) => ctx.log(line, stream), actor: ctx.job.createdByLabel });
  const system = spec.manager === 'system' ? detectSystemManager() : null;
  ctx.progress(2, 'waiting for the package lock');
  ctx.log(`[skilldock] waiting for the lock on ${specLockKey(spec)}${system ? ` and on ${system}` : ''}`, 'info');
  const op = async () => {
    // A job canceled while it waited must not start once the lock is free.
    if (ctx.signal.aborted) throw new AppError('INVALID_STATE', 'Canceled while waiting for the package lock.');
    ctx.log(`[skilldock] ${action} ${spec.raw} in ${mctx.runtimeDir}`, 'info');
    const result = await runPackageOp(mctx, action, spec, { toVersion: ctx.params.toVersion, progress: (p, s) => ctx.progress(p, s) });
    ctx.progress(100, 'done');
    return result;
  };
  return services.database.withLock(packageLockKey(spec), () => (system ? services.database.withLock(systemManagerLockKey(system), op) : op()));
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
