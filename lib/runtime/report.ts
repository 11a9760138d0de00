import type { Libc } from './detect/platform';
import type { SystemManager } from './types';

// What runtime detection found on this host, as skill processes see it.

export interface BinaryStatus {
  name: string;
  available: boolean;
  path?: string;
  version?: string;
  /** Why it is unavailable, or what is odd about it. */
  reason?: string;
  /** Installed by Skilldock into the runtime dir, rather than part of the host. */
  managed?: boolean;
}

export interface PythonStatus extends BinaryStatus {
  /** The real interpreter (sys.executable), which may differ from the PATH entry (a shim, a venv). */
  executable?: string;
  stdlib?: string;
  /** PEP 668 EXTERNALLY-MANAGED marker present: plain `pip install` into it is refused. */
  externallyManaged?: boolean;
}

export interface ManagerReadiness {
  ready: boolean;
  reason?: string;
  hint?: string;
}

export interface SystemStatus {
  manager: SystemManager | null;
  path?: string;
  osId?: string;
  osVersion?: string;
  osName?: string;
  root: boolean;
  sudoInstalled: boolean;
  /** `sudo -n true` succeeded (checked only when not root and sudo exists). */
  sudo: boolean;
}

export interface RuntimeReport {
  where: 'host';
  hostname: string;
  checkedAt: string;
  durationMs: number;
  runtimeDir: string;
  runtimes: { python3: PythonStatus; pip: BinaryStatus; node: BinaryStatus; npm: BinaryStatus };
  system: SystemStatus;
  platform: { os: NodeJS.Platform; arch: string; libc: Libc; libcVersion?: string; loader?: string };
  /** The GitHub-release bin dir: skill processes always get it on PATH; `onServicePath` is the service's own PATH. */
  runtimeBin: { path: string; exists: boolean; onServicePath: boolean };
  binaries: BinaryStatus[];
  managers: { pip: ManagerReadiness; npm: ManagerReadiness; system: ManagerReadiness; github: ManagerReadiness };
}
