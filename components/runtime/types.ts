/** Client-side shapes of the packages API (mirrors installedPackageOut / runtimesOut in lib/api/schemas.ts). */

export interface InstalledPackage {
  manager: 'pip' | 'npm' | 'apt' | 'apk' | 'github';
  name: string;
  version: string;
  /** Installed through Skilldock into the runtime dir; false for base packages (read only). */
  managed: boolean;
  location?: string;
  summary?: string;
  realPackage?: string;
}

export interface PackageList {
  items: InstalledPackage[];
  errors: { manager: string; message: string }[];
}

export interface ToolStatus {
  name: string;
  available: boolean;
  path?: string;
  version?: string;
  reason?: string;
  managed?: boolean;
}

export interface Readiness {
  ready: boolean;
  reason?: string;
  hint?: string;
}

export interface EnvEntry {
  name: string;
  value: string;
  why: string;
}

export interface RuntimeReport {
  where: 'host';
  hostname: string;
  checkedAt: string;
  durationMs: number;
  runtimeDir: string;
  runtimes: { python3: ToolStatus; pip: ToolStatus; node: ToolStatus; npm: ToolStatus };
  system: { manager: 'apt' | 'apk' | null; osName?: string; root?: boolean; sudo?: boolean };
  platform: { os: string; arch: string; libc: string };
  runtimeBin: { path: string; exists: boolean; onServicePath: boolean };
  binaries: ToolStatus[];
  managers: { pip: Readiness; npm: Readiness; system: Readiness; github: Readiness };
  env: EnvEntry[];
}

/** The tabs of the packages card and the manager filter each one sends. */
export const TABS = [
  { id: 'system', label: 'System', manager: 'system', prefix: 'system', readiness: 'system' },
  { id: 'python', label: 'Python', manager: 'pip', prefix: 'pip', readiness: 'pip' },
  { id: 'node', label: 'Node', manager: 'npm', prefix: 'npm', readiness: 'npm' },
] as const;
export type TabId = (typeof TABS)[number]['id'];

export const SORT_KEYS = ['name', '-name', 'version', '-version'] as const;
export type PackageSort = (typeof SORT_KEYS)[number];

export type PackageAction = 'install' | 'update' | 'uninstall';

/** The spec that names an installed package for update/uninstall (no version). */
export function packageSpec(p: InstalledPackage): string {
  if (p.manager === 'pip' || p.manager === 'npm') return `${p.manager}:${p.name}`;
  if (p.manager === 'apt' || p.manager === 'apk') return `system:${p.name}`;
  return `${p.manager}:${p.name}`;
}
