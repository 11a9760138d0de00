/** Package managers Skilldock drives. `github` is the GitHub-release installer (its own issue). */
export type ManagerName = 'pip' | 'npm' | 'apt' | 'apk' | 'github';
export type SystemManager = 'apt' | 'apk';

/** A parsed package spec: one grammar for install, uninstall, update and SKILL.md deps. */
export interface PackageSpec {
  /** The text as given. */
  raw: string;
  manager: ManagerName | 'system';
  /** Canonical name: pip/npm name as given (npm scope included), system user-facing name, github owner/repo. */
  name: string;
  /** PEP 440 specifier for pip (e.g. ">=2.31", "==1.2.3"), semver range or exact version for npm, tag for github. */
  version?: string;
  /** pip extras, e.g. ["binary"]. */
  extras?: string[];
  /** For `apt:` / `apk:` specs (manager `system`): which system manager the user named. */
  systemManager?: SystemManager;
}

export interface InstalledPackage {
  manager: ManagerName;
  name: string;
  version: string;
  /** Installed through Skilldock into the runtime dir (true) or part of the base image/host (false). */
  managed: boolean;
  /** Where it lives (dist-info dir, package dir, dpkg). */
  location?: string;
  summary?: string;
  /** For system packages installed under an alias: the real package name. */
  realPackage?: string;
  /** Managed packages: when and by whom Skilldock installed (or last updated) it, ISO time. */
  installedAt?: string;
  installedBy?: string;
}

export interface OutdatedPackage {
  manager: ManagerName;
  name: string;
  current: string;
  latest: string;
  prerelease?: boolean;
}

/** Error classes, as typed codes. */
export type PackageErrorClass = 'not_found' | 'conflict' | 'network' | 'permission' | 'disk_full' | 'timeout' | 'externally_managed' | 'locked' | 'unknown';

/** Output sink: each line of a manager's stdout/stderr, for the job log. */
export type LineSink = (line: string, stream: 'stdout' | 'stderr' | 'info') => void;

export interface ManagerContext {
  /** The runtime dir layout (see dir.ts). */
  runtimeDir: string;
  signal?: AbortSignal;
  log?: LineSink;
  /** Extra settings: index URLs, registry URL. */
  settings?: Record<string, string | undefined>;
}
