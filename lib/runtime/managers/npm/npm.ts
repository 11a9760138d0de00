import fs from 'node:fs';
import path from 'node:path';
import { valid as semverValid } from 'semver';
import { childEnv } from '../../../core/child-env';
import { AppError } from '../../../core/errors';
import { type RunResult, runProcess } from '../../../core/process';
import { ensureRuntimeDir, runtimeLayout } from '../../dir';
import { classifyPackageError, packageError } from '../../errors';
import type { InstalledPackage, ManagerContext, PackageSpec } from '../../types';
import { listNodeModules, npmRegistryUrl, readInstalledPackage, systemNodeModules, validateNpmName, validateNpmVersion } from './metadata';

export { validateNpmName } from './metadata';
export { createNpmRegistryCache, type NpmOutdatedOptions, type NpmOutdatedResult, type NpmRegistryCache, npmOutdated } from './registry';

export interface NpmRunOptions {
  /** Default 10 minutes. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10 * 60_000;

/**
 * The allowlisted environment: when Skilldock itself runs under `npm run`, the parent's npm_config_*
 * variables (prefix, global, …) would otherwise redirect the install; only Skilldock's own are set.
 */
function npmEnv(runtimeDir: string): NodeJS.ProcessEnv {
  return childEnv(
    { LC_ALL: 'C', npm_config_cache: path.join(path.resolve(runtimeDir), 'npm-cache'), npm_config_update_notifier: 'false' },
    { excludeFromPath: [runtimeDir] },
  );
}

/** The npm CLI next to the running node, so the same installation is used whatever PATH says. */
function npmCommand(): string {
  const beside = path.join(path.dirname(process.execPath), 'npm');
  return fs.existsSync(beside) ? beside : 'npm';
}

async function runNpm(ctx: ManagerContext, args: string[], what: string, opts: NpmRunOptions): Promise<RunResult> {
  const command = npmCommand();
  ctx.log?.(`$ ${command} ${args.join(' ')}`, 'info');
  const res = await runProcess(command, args, {
    env: npmEnv(ctx.runtimeDir),
    cwd: ensureRuntimeDir(ctx.runtimeDir).root,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxOutputBytes: 2 * 1024 * 1024,
    signal: ctx.signal,
    onLine: (line, stream) => ctx.log?.(line, stream),
  });
  if (res.aborted) throw new AppError('invalid_state', `${what} was canceled.`, { details: { manager: 'npm', class: 'canceled' } });
  if (res.timedOut) throw packageError('npm', 'timeout', what);
  if (res.code !== 0) {
    const output = `${res.stdout}\n${res.stderr}`;
    const excerpt =
      res.stderr
        .split('\n')
        .filter((l) => /npm (error|ERR!)/.test(l))
        .join('\n') || output;
    throw packageError('npm', classifyPackageError('npm', output), what, excerpt);
  }
  return res;
}

function globalArgs(ctx: ManagerContext): string[] {
  const registry = ctx.settings?.npmRegistry ? ['--registry', npmRegistryUrl(ctx)] : [];
  return ['--global', '--prefix', runtimeLayout(ctx.runtimeDir).npmGlobal, '--no-audit', '--no-fund', '--no-update-notifier', '--loglevel=http', ...registry];
}

async function installExact(ctx: ManagerContext, name: string, version: string, what: string, opts: NpmRunOptions): Promise<InstalledPackage> {
  const layout = ensureRuntimeDir(ctx.runtimeDir);
  ctx.log?.(`Installing ${name}@${version} into ${layout.npmGlobal}`, 'info');
  await runNpm(ctx, ['install', ...globalArgs(ctx), `${name}@${version}`], what, opts);
  const pkg = await readInstalledPackage(layout.npmModules, name, true);
  if (!pkg)
    throw new AppError('internal', `npm reported success but ${name} is not in ${layout.npmModules}.`, { details: { manager: 'npm', class: 'unknown' } });
  ctx.log?.(`Installed ${name} ${pkg.version}`, 'info');
  return pkg;
}

/** Installs a package (exact version, range or dist-tag; latest by default) into the runtime's npm prefix. */
export async function npmInstall(ctx: ManagerContext, spec: PackageSpec, opts: NpmRunOptions = {}): Promise<InstalledPackage> {
  if (spec.manager !== 'npm') throw new AppError('validation', `${spec.raw} is not an npm package spec.`);
  const name = validateNpmName(spec.name);
  const version = spec.version ? validateNpmVersion(spec.version) : 'latest';
  return installExact(ctx, name, version, `npm install of ${name}@${version}`, opts);
}

/** Updates a managed package to `toVersion` (an exact version) or to the registry's latest. */
export async function npmUpdate(ctx: ManagerContext, name: string, toVersion?: string, opts: NpmRunOptions = {}): Promise<InstalledPackage> {
  validateNpmName(name);
  if (toVersion !== undefined && !semverValid(toVersion)) {
    throw new AppError('validation', `An update goes to an exact version; "${toVersion}" is not one.`, {
      issues: [{ path: 'toVersion', message: 'must be an exact semver version' }],
    });
  }
  const layout = runtimeLayout(ctx.runtimeDir);
  const current = await readInstalledPackage(layout.npmModules, name, true);
  if (!current) throw await notManaged(name);
  const target = toVersion ?? 'latest';
  return installExact(ctx, name, target, `npm update of ${name} to ${target}`, opts);
}

async function notManaged(name: string): Promise<AppError> {
  const base = await readInstalledPackage(systemNodeModules(), name, false);
  if (base)
    return new AppError('invalid_state', `${name} came with the system; Skilldock only changes npm packages it installed.`, { details: { manager: 'npm' } });
  return new AppError('not_found', `npm package ${name} is not installed in the runtime dir.`, { details: { manager: 'npm', class: 'not_found' } });
}

/** Removes a managed package and checks that its folder is gone. */
export async function npmUninstall(ctx: ManagerContext, name: string, opts: NpmRunOptions = {}): Promise<void> {
  validateNpmName(name);
  const layout = runtimeLayout(ctx.runtimeDir);
  const dir = path.join(layout.npmModules, name);
  if (!(await readInstalledPackage(layout.npmModules, name, true))) throw await notManaged(name);
  ctx.log?.(`Removing ${name} from ${layout.npmGlobal}`, 'info');
  await runNpm(ctx, ['uninstall', ...globalArgs(ctx), name], `npm uninstall of ${name}`, opts);
  if (fs.existsSync(dir)) {
    throw new AppError('internal', `npm reported success but ${dir} is still there; remove it by hand or retry.`, {
      details: { manager: 'npm', class: 'unknown' },
    });
  }
  ctx.log?.(`Removed ${name}`, 'info');
}

/** Managed packages (the runtime prefix) and base packages (the Node.js installation's own globals). */
export async function npmList(ctx: ManagerContext): Promise<InstalledPackage[]> {
  const layout = runtimeLayout(ctx.runtimeDir);
  const systemDir = systemNodeModules();
  const [managed, base] = await Promise.all([
    listNodeModules(layout.npmModules, true),
    path.resolve(systemDir) !== path.resolve(layout.npmModules) && fs.existsSync(systemDir) ? listNodeModules(systemDir, false) : Promise.resolve([]),
  ]);
  return [...managed, ...base].sort((a, b) => a.name.localeCompare(b.name) || Number(b.managed) - Number(a.managed));
}
