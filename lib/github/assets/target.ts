import fs from 'node:fs';
import { AppError } from '../../core/errors';
import { detectLibc } from '../../runtime/detect/platform';
import type { TargetArch, TargetOs } from './tokens';

/** The platform a release asset must run on. */

export type TargetLibc = 'glibc' | 'musl' | 'unknown';

export interface Target {
  os: TargetOs;
  arch: TargetArch;
  /** Only meaningful for linux; `unknown` elsewhere or when detection failed. */
  libc: TargetLibc;
}

export interface HostTarget extends Target {
  /** PT_INTERP of the probed shell, e.g. `/lib64/ld-linux-x86-64.so.2`. */
  loader?: string;
}

export const TARGET_OSES: readonly TargetOs[] = ['linux', 'darwin', 'windows'];
export const TARGET_ARCHES: readonly TargetArch[] = ['amd64', 'arm64', '386', 'arm'];
export const TARGET_LIBCS: readonly TargetLibc[] = ['glibc', 'musl', 'unknown'];

const OS_OF: Partial<Record<NodeJS.Platform, TargetOs>> = { linux: 'linux', darwin: 'darwin', win32: 'windows' };
const ARCH_OF: Partial<Record<NodeJS.Architecture, TargetArch>> = { x64: 'amd64', arm64: 'arm64', ia32: '386', arm: 'arm' };

export interface DetectTargetOptions {
  platform?: NodeJS.Platform;
  arch?: NodeJS.Architecture;
  /** The binary whose PT_INTERP names the libc (`/bin/sh`). */
  shell?: string;
  /** Present on Alpine: musl without further checks. */
  alpineReleaseFile?: string;
}

/** Detects OS, arch and libc of this process's machine. Throws UNAVAILABLE on an OS or arch we cannot install for. */
export async function detectTarget(opts: DetectTargetOptions = {}): Promise<HostTarget> {
  const platform = opts.platform ?? process.platform;
  const arch = opts.arch ?? process.arch;
  const os = OS_OF[platform];
  const targetArch = ARCH_OF[arch];
  if (!os || !targetArch) {
    throw new AppError(
      'unavailable',
      `GitHub release installs are not supported on ${platform}/${arch}: supported are ${TARGET_OSES.join(', ')} on ${TARGET_ARCHES.join(', ')}.`,
    );
  }
  if (os !== 'linux') return { os, arch: targetArch, libc: 'unknown' };
  const info = await detectLibc({ binary: opts.shell ?? '/bin/sh' }).catch(() => ({ libc: 'unknown' as const, interpreter: undefined }));
  const alpine = fs.existsSync(/*turbopackIgnore: true*/ opts.alpineReleaseFile ?? '/etc/alpine-release');
  // The loader decides when there is one: detectLibc's `ldd --version` fallback describes this
  // machine's default libc, which can differ from the probed binary's.
  const fromLoader: TargetLibc | undefined = info.interpreter?.includes('ld-musl') ? 'musl' : info.interpreter?.includes('ld-linux') ? 'glibc' : undefined;
  const libc = alpine ? 'musl' : (fromLoader ?? info.libc);
  return { os, arch: targetArch, libc, ...(info.interpreter ? { loader: info.interpreter } : {}) };
}

// process-wide: the host's own OS and architecture, a fact of the machine
let cached: Promise<HostTarget> | undefined;

/** The gateway host's target, detected once per process; a failed detection is retried on the next call. */
export function hostTarget(): Promise<HostTarget> {
  cached ??= detectTarget().catch((e) => {
    cached = undefined;
    throw e;
  });
  return cached;
}

const TARGET_RE = /^(linux|darwin|windows)\/(amd64|arm64|386|arm)(?:\/(glibc|musl|unknown))?$/;

/** Parses `linux/amd64/musl`, `linux/arm64` (libc unknown), `darwin/arm64`. A libc is accepted only for linux. */
export function parseTarget(text: string): Target {
  const m = TARGET_RE.exec(text.trim());
  if (!m || (m[3] && m[1] !== 'linux')) {
    const message = `"${text.slice(0, 60)}" is not a target: use os/arch[/libc] with os ${TARGET_OSES.join('|')}, arch ${TARGET_ARCHES.join('|')}, libc ${TARGET_LIBCS.join('|')} (linux only).`;
    throw new AppError('validation', message, { issues: [{ path: 'target', message }] });
  }
  return { os: m[1] as TargetOs, arch: m[2] as TargetArch, libc: (m[3] as TargetLibc | undefined) ?? 'unknown' };
}

/** `linux/amd64/glibc`, `darwin/arm64` — the inverse of `parseTarget`. */
export function formatTarget(t: Target): string {
  return t.os === 'linux' ? `${t.os}/${t.arch}/${t.libc}` : `${t.os}/${t.arch}`;
}
