import path from 'node:path';
import { joinPathList, splitPathList } from './which';

/** Any environment map, process.env included. */
export type EnvMap = Readonly<Record<string, string | undefined>>;

/** Used when the server's environment has no PATH at all. */
export const DEFAULT_SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * Variables every child may inherit from the server: where programs and the home are, the locale,
 * the time zone, scratch space, proxies and extra CA certificates. Anything else a child needs
 * (PIP_*, npm_config_*, DEBIAN_FRONTEND, PYTHONPATH…) its caller sets explicitly.
 */
// process-wide: a constant table, never written
const PASSED = new Set([
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
  'all_proxy',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
]);
const passed = (name: string) => PASSED.has(name) || name.startsWith('LC_');

/** Secrets Skilldock reads from its own environment; they are removed from process.env once read. */
export const SECRET_ENV_NAMES = ['NEXTAUTH_SECRET', 'SKILLDOCK_SESSION_SECRET', 'SKILLDOCK_SECRET_KEY', 'SKILLDOCK_ADMIN_PASSWORD'] as const;

/** Deletes the secrets from `env` (process.env by default) after the configuration has read them. */
export function scrubSecretEnv(env: Record<string, string | undefined> = process.env): void {
  for (const name of SECRET_ENV_NAMES) delete env[name];
}

function isUnder(dir: string, root: string): boolean {
  const rel = path.relative(root, dir);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * A PATH without what `npm start` and `npm run` put in front of the host's folders (every
 * `node_modules/.bin` from the project up to `/`, npm's `node-gyp-bin`), without relative entries,
 * and without any folder under `exclude` (the runtime dir, whose programs anyone with
 * `packages.write` can replace).
 */
export function cleanPath(value: string | undefined, exclude: readonly string[] = []): string {
  const roots = exclude.map((d) => path.resolve(d));
  const kept = splitPathList(value).filter((dir) => {
    if (!path.isAbsolute(dir)) return false;
    const norm = path.normalize(dir);
    const parts = norm.split(path.sep);
    if (parts.includes('node_modules') || parts.includes('node-gyp-bin')) return false;
    return !roots.some((root) => isUnder(norm, root));
  });
  return joinPathList(kept) || DEFAULT_SYSTEM_PATH;
}

export interface ChildEnvOptions {
  /** The environment to take the allowlisted variables from (default process.env). */
  base?: EnvMap;
  /** Folders removed from PATH (see cleanPath). */
  excludeFromPath?: readonly string[];
}

/**
 * The environment of a child process: the allowlisted variables of the server's environment, a
 * clean PATH, then `extra` (an undefined value removes the variable). Never the whole server env.
 */
export function childEnv(extra: EnvMap = {}, opts: ChildEnvOptions = {}): Record<string, string> & NodeJS.ProcessEnv {
  const base = opts.base ?? process.env;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined && passed(k)) env[k] = v;
  env.PATH = cleanPath(base.PATH, opts.excludeFromPath);
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  for (const name of SECRET_ENV_NAMES) delete env[name];
  return env as Record<string, string> & NodeJS.ProcessEnv;
}
