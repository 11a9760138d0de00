import fs from 'node:fs/promises';
import path from 'node:path';
import { mapLimit } from '../../../core/concurrency';
import { AppError } from '../../../core/errors';
import type { InstalledPackage, ManagerContext } from '../../types';

/** npm package names: lowercase, optional scope, never a leading `-` or `.`. */
export const NPM_NAME = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;
/** Exact version, semver range or dist-tag. Spaces allowed for ranges such as ">=1.2 <2". */
const NPM_VERSION = /^[A-Za-z0-9^~<>=|*.+ x-]{1,100}$/;
export const DEFAULT_NPM_REGISTRY = 'https://registry.npmjs.org/';

export function validateNpmName(name: string): string {
  if (name.length > 214 || !NPM_NAME.test(name)) {
    throw new AppError('validation', `"${name}" is not a valid npm package name (lowercase, optional @scope/).`, {
      issues: [{ path: 'name', message: `must match ${NPM_NAME.source}` }],
    });
  }
  return name;
}

export function validateNpmVersion(version: string): string {
  if (!NPM_VERSION.test(version) || version.startsWith('-') || version.trim() === '') {
    throw new AppError('validation', `"${version}" is not a valid npm version, range or dist-tag.`, {
      issues: [{ path: 'version', message: `must match ${NPM_VERSION.source}` }],
    });
  }
  return version.trim();
}

/** The registry from settings, or the public one. Only plain http(s) URLs; credentials never go into argv. */
export function npmRegistryUrl(ctx: ManagerContext): string {
  const raw = ctx.settings?.npmRegistry?.trim();
  if (!raw) return DEFAULT_NPM_REGISTRY;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError('validation', `The npm registry setting "${raw}" is not a URL.`, {
      issues: [{ path: 'npmRegistry', message: 'must be an http(s) URL' }],
    });
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash) {
    throw new AppError('validation', `The npm registry setting must be a plain http(s) URL without credentials, query or fragment (got "${raw}").`, {
      issues: [{ path: 'npmRegistry', message: 'must be an http(s) URL' }],
    });
  }
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

async function readDirNames(dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).filter((n) => !n.startsWith('.'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw e;
  }
}

/** Package dirs under a node_modules folder, scoped ones (`@scope/name`) included. */
export async function packageDirs(modulesDir: string): Promise<string[]> {
  const top = await readDirNames(modulesDir);
  const scoped = await mapLimit(
    top.filter((n) => n.startsWith('@')),
    16,
    async (scope) => (await readDirNames(path.join(modulesDir, scope))).map((n) => `${scope}/${n}`),
  );
  return [...top.filter((n) => !n.startsWith('@')), ...scoped.flat()];
}

interface PackageJson {
  name?: unknown;
  version?: unknown;
  description?: unknown;
}

async function readPackage(modulesDir: string, rel: string, managed: boolean): Promise<InstalledPackage | null> {
  const dir = path.join(modulesDir, rel);
  let pkg: PackageJson;
  try {
    pkg = JSON.parse(await fs.readFile(path.join(dir, 'package.json'), 'utf8')) as PackageJson;
  } catch {
    return null;
  }
  if (typeof pkg.version !== 'string') return null;
  return {
    manager: 'npm',
    name: typeof pkg.name === 'string' && pkg.name ? pkg.name : rel,
    version: pkg.version,
    managed,
    location: dir,
    ...(typeof pkg.description === 'string' && pkg.description ? { summary: pkg.description } : {}),
  };
}

/** Reads every package.json under a node_modules folder directly (no npm process). */
export async function listNodeModules(modulesDir: string, managed: boolean, concurrency = 32): Promise<InstalledPackage[]> {
  const dirs = await packageDirs(modulesDir);
  const pkgs = await mapLimit(dirs, concurrency, (rel) => readPackage(modulesDir, rel, managed));
  return pkgs.filter((p): p is InstalledPackage => p !== null);
}

/** Reads one installed package's package.json, or null when it is not there. */
export function readInstalledPackage(modulesDir: string, name: string, managed: boolean): Promise<InstalledPackage | null> {
  return readPackage(modulesDir, name, managed);
}

/** The node_modules of the Node.js installation running Skilldock (its bundled npm, corepack, …). */
export function systemNodeModules(): string {
  return path.join(path.dirname(path.dirname(process.execPath)), 'lib', 'node_modules');
}
