/**
 * ELF validation against the execution target, and script/shebang helpers. Parsing lives in `parse.ts`.
 */
import { AppError } from '@/lib/core/errors';
import type { ElfClass, ElfInfo, ElfLibc } from './parse';

export {
  type ElfClass,
  type ElfEndian,
  ElfFormatError,
  type ElfInfo,
  type ElfLibc,
  type ElfType,
  isElf,
  libcFromInterp,
  MAX_PHNUM,
  machineName,
  readElfFile,
  readElfInfo,
} from './parse';

export type ElfArch = 'amd64' | 'arm64' | '386' | 'arm';

export interface ElfTarget {
  arch: ElfArch | string;
  /** Libc of the execution target; `unknown` skips the pairing rule. */
  libc: 'glibc' | 'musl' | 'unknown' | string;
}

export interface ValidateElfOptions {
  /** Whether a path exists in the execution target (e.g. `fs.existsSync`, or a sandbox probe). */
  interpreterExists?: (path: string) => boolean;
  /** Admin override: accept a glibc binary on a musl target. Missing interpreters still fail. */
  allowLibcMismatch?: boolean;
}

/** `ElfInfo` fields recorded in the manifest. */
export interface ElfValidation {
  arch: string;
  libc: ElfLibc;
  interp: string | null;
}

export const EM_BY_ARCH: Record<ElfArch, number> = { amd64: 62, arm64: 183, '386': 3, arm: 40 };
const CLASS_BY_ARCH: Record<ElfArch, ElfClass> = { amd64: 64, arm64: 64, '386': 32, arm: 32 };

/** Parsed `#!` line of a script: `#!/usr/bin/env python3` → { interpreter: '/usr/bin/env', arg: 'python3' }. */
export function parseShebang(buf: Uint8Array): { interpreter: string; arg: string | null } | null {
  if (buf.length < 3 || buf[0] !== 0x23 || buf[1] !== 0x21) return null;
  const max = Math.min(buf.length, 256);
  let end = 2;
  while (end < max && buf[end] !== 0x0a) end++;
  const line = Buffer.from(buf.subarray(2, end)).toString('utf8').replace(/\r$/, '').trim();
  if (!line || /[\x00-\x08\x0b-\x1f\x7f]/.test(line)) return null;
  const m = /^(\S+)(?:[ \t]+([^ \t].*))?$/.exec(line);
  if (!m?.[1].startsWith('/')) return null;
  return { interpreter: m[1], arg: m[2]?.trim() || null };
}

/** The interpreter path of a `#!` script, or null. */
export function hasShebang(buf: Uint8Array): string | null {
  return parseShebang(buf)?.interpreter ?? null;
}

/**
 * Check a binary against the execution target. Throws `wrong_architecture`
 * (class, endianness, machine, or not an executable) or `libc_mismatch`.
 */
export function validateElf(info: ElfInfo, target: ElfTarget, opts: ValidateElfOptions = {}): ElfValidation {
  const arch = target.arch as ElfArch;
  const expectedMachine = EM_BY_ARCH[arch];
  if (expectedMachine === undefined) {
    throw new AppError('wrong_architecture', `Unsupported target architecture ${target.arch}.`, {
      details: { expected: target.arch, found: info.machineName },
    });
  }
  const expectedClass = CLASS_BY_ARCH[arch];
  const wrong = (what: string, expected: unknown, found: unknown) =>
    new AppError(
      'wrong_architecture',
      `Binary is built for ${info.machineName} (${info.class}-bit, ${info.endian === 'le' ? 'little' : 'big'}-endian); the target is ${target.arch}.`,
      {
        details: { field: what, expected, found, expectedArch: target.arch, foundArch: info.machineName },
        hint: `Pick an asset built for linux/${target.arch}.`,
      },
    );
  if (info.machine !== expectedMachine) throw wrong('machine', expectedMachine, info.machine);
  if (info.class !== expectedClass) throw wrong('class', expectedClass, info.class);
  if (info.endian !== 'le') throw wrong('endian', 'le', info.endian);
  if ((info.type !== 'exec' && info.type !== 'dyn') || info.entry === BigInt(0)) {
    throw new AppError(
      'wrong_architecture',
      `The file is an ELF ${info.type === 'dyn' ? 'shared object' : info.type} without an entry point, not an executable.`,
      {
        details: { field: 'type', expected: ['exec', 'dyn'], found: info.type, entry: info.entry.toString() },
        hint: 'Choose the executable with binaryPath.',
      },
    );
  }
  const suggest = 'Choose a musl or statically linked asset (e.g. a *-linux-musl or *_static build).';
  if (info.interp !== null && opts.interpreterExists && !opts.interpreterExists(info.interp)) {
    throw new AppError('libc_mismatch', `The binary needs the loader ${info.interp}, which does not exist in the target (it would fail with "not found").`, {
      details: { interp: info.interp, binaryLibc: info.libc, targetLibc: target.libc },
      hint: suggest,
    });
  }
  if (info.libc === 'glibc' && target.libc === 'musl' && !opts.allowLibcMismatch) {
    throw new AppError('libc_mismatch', `The binary is linked against glibc (${info.interp}); the target uses musl.`, {
      details: { interp: info.interp, binaryLibc: 'glibc', targetLibc: 'musl' },
      hint: suggest,
    });
  }
  if (info.libc === 'musl' && target.libc === 'glibc' && !opts.interpreterExists) {
    // Without a probe we cannot know whether the musl loader is installed; it usually is not.
    throw new AppError('libc_mismatch', `The binary is linked against musl (${info.interp}); the target uses glibc and has no musl loader known.`, {
      details: { interp: info.interp, binaryLibc: 'musl', targetLibc: 'glibc' },
      hint: 'Choose a glibc (gnu) or statically linked asset.',
    });
  }
  return { arch: info.machineName, libc: info.libc, interp: info.interp };
}
