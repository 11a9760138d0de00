// Shared shapes of the real release asset lists used by the asset picker tests.
import type { PickTarget } from './picker';

const L = (arch: PickTarget['arch'], libc: PickTarget['libc']): PickTarget => ({ os: 'linux', arch, libc });
export const TARGETS = {
  amd64Glibc: L('amd64', 'glibc'),
  amd64Musl: L('amd64', 'musl'),
  arm64Glibc: L('arm64', 'glibc'),
  arm64Musl: L('arm64', 'musl'),
} as const;
export type TargetKey = keyof typeof TARGETS;

export interface Project {
  /** owner/name on GitHub; the picker's toolName is the repo name, as the installer and the update check pass it. */
  repo: string;
  tag: string;
  assets: string[];
  /** Expected choice per target; null = no asset fits, the picker must throw NoMatchingAssetError. */
  expect: Record<TargetKey, string | null>;
  /** Expected rejection reasons on linux/amd64/glibc. */
  rejected: Record<string, string | RegExp>;
}

// Target triples as Rust projects publish them.
export const triples = (prefix: string, list: string[], ext = '.tar.gz') => list.map((t) => `${prefix}${t}${t.includes('windows') ? '.zip' : ext}`);
