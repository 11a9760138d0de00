// The deps stage: system packages, then Python, then Node, through the Runtime & Packages flag
// builders so index, extra indexes, find-links, index-free mode and the npm registry are honoured.
import path from 'node:path';
import { AppError, isAppError } from '../../core/errors';
import { npmRegistryUrl } from '../../runtime/managers/npm/metadata';
import { type PipIndexSettings, pipIndexFlags, pipIndexSettings } from '../../runtime/managers/pip/cmd';
import { resolveSystemPackage } from '../../runtime/managers/system/exec';
import type { PackageSpec, SystemManager } from '../../runtime/types';
import { managerSettings, type RuntimeSettings } from '../../settings/runtime-settings';
import { VENV_SCRIPT } from './scripts';
import { type InstallStep, NODE_PREFIX, type PlanProblem, type PlanTarget, PYTHON_PREFIX, VENV_PYTHON, WHEELHOUSE_ROOT } from './types';

const MIN = 60_000;
const APT_ENV = { DEBIAN_FRONTEND: 'noninteractive' };
// Older pips ignore unknown PIP_* variables, so these are safe whatever pip the image has. No
// cache dir: pip's HTTP cache under /root/.cache would be committed into the snapshot.
export const PIP_ENV = { PIP_ROOT_USER_ACTION: 'ignore', PIP_NO_WARN_SCRIPT_LOCATION: '1', PIP_NO_CACHE_DIR: '1', PYTHONDONTWRITEBYTECODE: '1' };
const NPM_ENV = { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };

export interface IndexConfig {
  pip: string[];
  /** `--trusted-host` pairs for the plain-http locations of `pip` (pip only: uv fetches http as is). */
  pipTrusted: string[];
  npm: string[];
  hostDirs: { hostPath: string; sandboxPath: string }[];
}

/** pip and npm index flags from the runtime settings; host find-links folders are mapped into the sandbox. */
export function indexConfig(settings: RuntimeSettings, problems: PlanProblem[]): IndexConfig {
  const raw = managerSettings(settings);
  const hostDirs: IndexConfig['hostDirs'] = [];
  let pip: string[] = [];
  let pipTrusted: string[] = [];
  let npm: string[] = [];
  try {
    const index: PipIndexSettings = pipIndexSettings(raw);
    const findLinks = index.findLinks.map((f) => {
      if (!path.posix.isAbsolute(f)) return f;
      const sandboxPath = `${WHEELHOUSE_ROOT}/${hostDirs.length}`;
      hostDirs.push({ hostPath: f, sandboxPath });
      return sandboxPath;
    });
    pip = pipIndexFlags({ ...index, findLinks });
    pipTrusted = trustedHostFlags(index);
  } catch (e) {
    if (!isAppError(e)) throw e;
    problems.push({ code: 'invalid_setting', field: 'pip', message: e.message });
  }
  try {
    if (raw.npmRegistry) npm = ['--registry', npmRegistryUrl({ runtimeDir: '', settings: raw })];
  } catch (e) {
    if (!isAppError(e)) throw e;
    problems.push({ code: 'invalid_setting', field: 'npmRegistry', message: e.message });
  }
  return { pip, pipTrusted, npm, hostDirs };
}

// A WHATWG URL's host: lower-case DNS labels or IPv4, or a bracketed IPv6, then an optional port.
const TRUSTED_HOST_RE = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/**
 * pip ignores a plain-http index or find-links page unless its host is trusted; the operator named
 * that location, so it is trusted for this install without the image's own pip.conf. Hosts of https
 * locations are not added: that would turn off certificate checks.
 */
export function trustedHostFlags(index: PipIndexSettings): string[] {
  const urls = [...(index.noIndex ? [] : [index.indexUrl ?? '', ...index.extraIndexUrls]), ...index.findLinks];
  const hosts: string[] = [];
  for (const raw of urls) {
    if (!/^http:\/\//i.test(raw)) continue;
    const host = new URL(raw).host;
    if (!TRUSTED_HOST_RE.test(host))
      throw new AppError('validation', `The pip location ${raw} has a host pip cannot be told to trust (${host}).`, {
        issues: [{ path: 'settings.pip', message: 'a host name or IP address' }],
      });
    if (!hosts.includes(host)) hosts.push(host);
  }
  return hosts.flatMap((h) => ['--trusted-host', h]);
}

export function venvStep(): InstallStep {
  return {
    stage: 'deps',
    title: 'Prepare the Python environment',
    argv: ['sh', '-c', VENV_SCRIPT, 'skilldock-venv', PYTHON_PREFIX],
    timeoutMs: 2 * MIN,
  };
}

/** `python3 -m pip install` into the venv, or `uv pip install` against it. */
export function pythonInstallStep(requirements: string[], index: IndexConfig, via: 'pip' | 'uv', title: string): InstallStep {
  const argv =
    via === 'uv'
      ? ['uv', 'pip', 'install', '--python', VENV_PYTHON, ...index.pip, '--', ...requirements]
      : [VENV_PYTHON, '-m', 'pip', 'install', '--no-input', '--disable-pip-version-check', ...index.pip, ...index.pipTrusted, '--', ...requirements];
  return { stage: via === 'uv' ? 'install-specs' : 'deps', title, argv, env: { ...PIP_ENV }, cwd: '/tmp', timeoutMs: 10 * MIN };
}

export function npmInstallStep(requirements: string[], index: IndexConfig, stage: 'deps' | 'install-specs', title: string): InstallStep {
  return {
    stage,
    title,
    argv: ['npm', 'install', '--global', '--prefix', NODE_PREFIX, '--no-audit', '--no-fund', '--no-update-notifier', ...index.npm, '--', ...requirements],
    env: { ...NPM_ENV },
    cwd: '/tmp',
    timeoutMs: 10 * MIN,
  };
}

/** apt-get (update, then install without recommends) or apk, whichever the image has. */
export function systemSteps(specs: PackageSpec[], target: PlanTarget, problems: PlanProblem[]): InstallStep[] {
  if (!specs.length) return [];
  const manager: SystemManager | null = target.has.apt ? 'apt' : target.has.apk ? 'apk' : null;
  if (!manager) {
    const names = specs.map((s) => s.name).join(', ');
    problems.push({
      code: 'unresolved_precondition',
      requirement: 'apt',
      message: `system packages (${names}) need apt-get or apk in the image; it has neither`,
    });
    return [];
  }
  const packages: string[] = [];
  for (const spec of specs) {
    const named = spec.systemManager ?? (spec.manager === 'apt' || spec.manager === 'apk' ? spec.manager : undefined);
    if (named && named !== manager) {
      problems.push({
        code: 'unresolved_precondition',
        requirement: named,
        message: `${spec.raw} names ${named}, but the image's package manager is ${manager}`,
      });
      continue;
    }
    try {
      packages.push(resolveSystemPackage(manager, spec.name));
    } catch (e) {
      if (!isAppError(e)) throw e;
      problems.push({ code: 'invalid_value', field: 'system', value: spec.name, message: e.message });
    }
  }
  if (!packages.length) return [];
  const unique = [...new Set(packages)];
  if (manager === 'apk')
    return [{ stage: 'deps', title: `Install system packages: ${unique.join(', ')}`, argv: ['apk', 'add', '--no-cache', ...unique], timeoutMs: 20 * MIN }];
  return [
    { stage: 'deps', title: 'Refresh the package lists', argv: ['apt-get', 'update'], env: { ...APT_ENV }, timeoutMs: 10 * MIN },
    {
      stage: 'deps',
      title: `Install system packages: ${unique.join(', ')}`,
      // Names matched the manager's allowlist (no leading "-"), so no "--" is needed (apt-get has none).
      argv: ['apt-get', 'install', '-y', '--no-install-recommends', '-o', 'Dpkg::Options::=--force-confold', ...unique],
      env: { ...APT_ENV },
      timeoutMs: 20 * MIN,
    },
  ];
}
