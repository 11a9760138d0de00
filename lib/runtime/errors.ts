import { AppError, type ErrorCode } from '../core/errors';
import type { ManagerName, PackageErrorClass } from './types';

/** apk names what needs a package after "unsatisfiable constraints" (one pass, not a regex with a `[\s\S]*` gap). */
function unsatisfiableByDependency(output: string): boolean {
  const lower = output.toLowerCase();
  const at = lower.indexOf('unsatisfiable constraints');
  return at >= 0 && (lower.indexOf('breaks: world', at) >= 0 || lower.indexOf('required by', at) >= 0);
}

/** Substring rules per manager, first match wins. */
const RULES: Record<string, [RegExp | ((output: string) => boolean), PackageErrorClass][]> = {
  pip: [
    [/externally-managed-environment/i, 'externally_managed'],
    [/Permission denied|EACCES/i, 'permission'],
    [/No space left on device/i, 'disk_full'],
    [/No matching distribution|Could not find a version/i, 'not_found'],
    [/Read timed out|ConnectionError|Failed to establish a new connection|network is unreachable|Temporary failure in name resolution/i, 'network'],
    [/incompatible|dependency resolver|Shallow backtracking|ResolutionImpossible|conflicting dependencies/i, 'conflict'],
  ],
  npm: [
    [/EACCES|EPERM/, 'permission'],
    [/ENOSPC/, 'disk_full'],
    [/ERESOLVE/, 'conflict'],
    [/ETIMEDOUT|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|getaddrinfo|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT|CERT_HAS_EXPIRED/, 'network'],
    [/ETARGET/, 'not_found'],
    [/E404|404 Not Found|not in this registry|is not in the npm registry/i, 'not_found'],
  ],
  apt: [
    [/Could not get lock|Unable to acquire the dpkg frontend lock|unable to lock/i, 'locked'],
    [/Permission denied|are you root|a password is required|sudo: /i, 'permission'],
    [/No space left on device/i, 'disk_full'],
    [/Unable to locate package|has no installation candidate|is not installed/i, 'not_found'],
    [/Temporary failure resolving|Could not resolve|Failed to fetch|Connection failed|Unable to connect/i, 'network'],
    [/Unmet dependencies|Depends:|held broken packages/i, 'conflict'],
  ],
  apk: [
    [/unable to lock/i, 'locked'],
    [/Permission denied/i, 'permission'],
    [/No space left/i, 'disk_full'],
    [unsatisfiableByDependency, 'conflict'],
    [/unsatisfiable constraints/i, 'not_found'],
    [/network error|temporary error|DNS lookup error|Connection refused/i, 'network'],
  ],
};

export function classifyPackageError(manager: ManagerName, output: string): PackageErrorClass {
  for (const [rule, cls] of RULES[manager] ?? []) if (typeof rule === 'function' ? rule(output) : rule.test(output)) return cls;
  return 'unknown';
}

const CODE: Record<PackageErrorClass, ErrorCode> = {
  not_found: 'not_found',
  conflict: 'conflict',
  network: 'unavailable',
  permission: 'unavailable',
  disk_full: 'unavailable',
  timeout: 'unavailable',
  externally_managed: 'invalid_state',
  locked: 'conflict',
  unknown: 'internal',
};

const HINT: Record<PackageErrorClass, string> = {
  not_found: 'Check the name and version, and the index or registry configured in Settings.',
  conflict: 'Another installed package needs a different version; pin a compatible version or update the other package first.',
  network: 'The package index could not be reached; check the index or registry URL and the network.',
  permission: 'The service user cannot write there; grant passwordless sudo for the system manager, or fix the runtime dir ownership.',
  disk_full: 'The disk is full; free space in the runtime dir.',
  timeout: 'The operation took too long and was stopped; try again, or raise the timeout.',
  externally_managed: 'The interpreter is externally managed (PEP 668); install into the runtime dir instead.',
  locked: 'Another package operation holds the manager lock; wait for it to finish.',
  unknown: 'See the job log for the full output.',
};

/** A typed error for a failed package operation: class in details, a message a person can act on. */
export function packageError(manager: ManagerName, cls: PackageErrorClass, what: string, excerpt?: string): AppError {
  const tail = excerpt ? ` (${excerpt.trim().split('\n').slice(-3).join(' ').slice(0, 400)})` : '';
  return new AppError(CODE[cls], `${what} failed: ${cls.replace('_', ' ')}${tail}. ${HINT[cls]}`, { details: { manager, class: cls } });
}
