/**
 * ELF header / program-header reader.
 *
 * Reads only what is needed — the ELF header, the program header table and the PT_INTERP
 * string — with bounds checks on every read. A truncated or hostile file throws an
 * `ElfFormatError` (a `AppError` with code `wrong_architecture`); it never reads
 * out of range, allocates from untrusted sizes beyond small caps, or loops unbounded.
 */
import { open } from 'node:fs/promises';
import { AppError } from '@/lib/core/errors';

export type ElfClass = 32 | 64;
export type ElfEndian = 'le' | 'be';
export type ElfType = 'none' | 'rel' | 'exec' | 'dyn' | 'core' | 'unknown';
export type ElfLibc = 'static' | 'musl' | 'glibc' | 'unknown';

export interface ElfInfo {
  class: ElfClass;
  endian: ElfEndian;
  type: ElfType;
  /** Raw `e_type`. */
  typeNumber: number;
  machine: number;
  /** `amd64` | `arm64` | `386` | `arm` | other known names | `em_<n>`. */
  machineName: string;
  entry: bigint;
  /** Path from PT_INTERP, or null when there is none (static or static-pie). */
  interp: string | null;
  libc: ElfLibc;
  /** Number of program headers read. */
  phnum: number;
}

/** Thrown for anything that is not a well-formed ELF file. */
export class ElfFormatError extends AppError {
  constructor(reason: string, details: Record<string, unknown> = {}) {
    super('wrong_architecture', `Not a valid ELF executable: ${reason}.`, {
      details: { reason, ...details },
      hint: 'The chosen file is not a Linux executable; pick another asset or set binaryPath.',
    });
    this.name = 'ElfFormatError';
  }
}

const PT_INTERP = 3;
/** Extended numbering marker: the real count lives in section header 0. Not used by executables. */
const PN_XNUM = 0xffff;
/** Far above any real executable (typically 8–15); keeps the table read tiny. */
export const MAX_PHNUM = 1024;
const MAX_PHENTSIZE = 1024;
/** PATH_MAX. */
const MAX_INTERP = 4096;
const HEADER_BYTES = 64;

const MACHINE_NAMES: Record<number, string> = {
  2: 'sparc',
  3: '386',
  8: 'mips',
  20: 'ppc',
  21: 'ppc64',
  22: 's390x',
  40: 'arm',
  43: 'sparc64',
  62: 'amd64',
  183: 'arm64',
  243: 'riscv64',
  258: 'loong64',
};

const TYPES: Record<number, ElfType> = { 0: 'none', 1: 'rel', 2: 'exec', 3: 'dyn', 4: 'core' };

export function machineName(machine: number): string {
  return MACHINE_NAMES[machine] ?? `em_${machine}`;
}

export function isElf(buf: Uint8Array): boolean {
  return buf.length >= 4 && buf[0] === 0x7f && buf[1] === 0x45 && buf[2] === 0x4c && buf[3] === 0x46;
}

/** libc implied by a PT_INTERP path. */
export function libcFromInterp(interp: string | null): ElfLibc {
  if (interp === null) return 'static';
  const base = interp.slice(interp.lastIndexOf('/') + 1);
  if (/^ld-musl-/.test(base)) return 'musl';
  if (/^ld-linux(?:-[a-z0-9_-]+)?\.so\.\d+$/.test(base) || /^ld64\.so\.\d+$/.test(base)) return 'glibc';
  return 'unknown';
}

interface ElfHeader {
  class: ElfClass;
  endian: ElfEndian;
  typeNumber: number;
  machine: number;
  entry: bigint;
  phoff: number;
  phentsize: number;
  phnum: number;
}

function toSafeNumber(v: bigint, what: string): number {
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new ElfFormatError(`${what} is out of range`);
  return Number(v);
}

function parseHeader(b: Buffer): ElfHeader {
  if (!isElf(b)) throw new ElfFormatError(b.length < 4 ? 'file too short' : 'missing ELF magic');
  if (b.length < 16) throw new ElfFormatError('truncated ELF header', { size: b.length });
  const cls = b[4];
  if (cls !== 1 && cls !== 2) throw new ElfFormatError(`unknown EI_CLASS ${cls}`);
  const data = b[5];
  if (data !== 1 && data !== 2) throw new ElfFormatError(`unknown EI_DATA ${data}`);
  if (b[6] !== 1) throw new ElfFormatError(`unknown EI_VERSION ${b[6]}`);
  const klass: ElfClass = cls === 2 ? 64 : 32;
  const le = data === 1;
  const need = klass === 64 ? 64 : 52;
  if (b.length < need) throw new ElfFormatError('truncated ELF header', { size: b.length, need });
  const u16 = (o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const u64 = (o: number) => (le ? b.readBigUInt64LE(o) : b.readBigUInt64BE(o));
  const typeNumber = u16(16);
  const machine = u16(18);
  let entry: bigint, phoff: number, phentsize: number, phnum: number;
  if (klass === 64) {
    entry = u64(24);
    phoff = toSafeNumber(u64(32), 'e_phoff');
    phentsize = u16(54);
    phnum = u16(56);
  } else {
    entry = BigInt(u32(24));
    phoff = u32(28);
    phentsize = u16(42);
    phnum = u16(44);
  }
  return { class: klass, endian: le ? 'le' : 'be', typeNumber, machine, entry, phoff, phentsize, phnum };
}

/** Byte range of the program header table, validated against the file size. */
function phdrRange(h: ElfHeader, fileSize: number): { offset: number; length: number } | null {
  if (h.phnum === 0) return null;
  if (h.phnum === PN_XNUM) throw new ElfFormatError('extended program header numbering is not supported');
  if (h.phnum > MAX_PHNUM) throw new ElfFormatError(`too many program headers (${h.phnum})`, { phnum: h.phnum });
  const min = h.class === 64 ? 56 : 32;
  if (h.phentsize < min || h.phentsize > MAX_PHENTSIZE) {
    throw new ElfFormatError(`bad program header entry size ${h.phentsize}`);
  }
  const length = h.phnum * h.phentsize; // ≤ 1024 * 1024
  if (h.phoff < (h.class === 64 ? 64 : 52) || h.phoff + length > fileSize) {
    throw new ElfFormatError('program header table lies outside the file', { phoff: h.phoff, length, fileSize });
  }
  return { offset: h.phoff, length };
}

/** Location of the PT_INTERP string, from the program header table bytes. */
function findInterp(h: ElfHeader, table: Buffer, fileSize: number): { offset: number; size: number } | null {
  const le = h.endian === 'le';
  for (let i = 0; i < h.phnum; i++) {
    const o = i * h.phentsize;
    const type = le ? table.readUInt32LE(o) : table.readUInt32BE(o);
    if (type !== PT_INTERP) continue;
    let offset: number, size: number;
    if (h.class === 64) {
      offset = toSafeNumber(le ? table.readBigUInt64LE(o + 8) : table.readBigUInt64BE(o + 8), 'PT_INTERP offset');
      size = toSafeNumber(le ? table.readBigUInt64LE(o + 32) : table.readBigUInt64BE(o + 32), 'PT_INTERP size');
    } else {
      offset = le ? table.readUInt32LE(o + 4) : table.readUInt32BE(o + 4);
      size = le ? table.readUInt32LE(o + 16) : table.readUInt32BE(o + 16);
    }
    if (size < 2 || size > MAX_INTERP) throw new ElfFormatError(`bad PT_INTERP size ${size}`);
    if (offset + size > fileSize) throw new ElfFormatError('PT_INTERP lies outside the file', { offset, size, fileSize });
    return { offset, size }; // the kernel uses the first PT_INTERP
  }
  return null;
}

function decodeInterp(bytes: Buffer): string {
  // Like the kernel: the segment must end with NUL; the path is what precedes the first NUL.
  if (bytes[bytes.length - 1] !== 0) throw new ElfFormatError('PT_INTERP is not NUL-terminated');
  const nul = bytes.indexOf(0);
  const s = bytes.subarray(0, nul).toString('latin1');
  if (!s.startsWith('/') || /[^\x21-\x7e]/.test(s)) throw new ElfFormatError('PT_INTERP is not a plausible path');
  return s;
}

function buildInfo(h: ElfHeader, interp: string | null): ElfInfo {
  return {
    class: h.class,
    endian: h.endian,
    type: TYPES[h.typeNumber] ?? 'unknown',
    typeNumber: h.typeNumber,
    machine: h.machine,
    machineName: machineName(h.machine),
    entry: h.entry,
    interp,
    libc: libcFromInterp(interp),
    phnum: h.phnum,
  };
}

/**
 * Parse ELF info from a buffer. The buffer must hold every byte referenced (header,
 * program header table, interpreter string) — for files on disk use `readElfFile`.
 */
export function readElfInfo(buf: Buffer): ElfInfo {
  const h = parseHeader(buf);
  const range = phdrRange(h, buf.length);
  if (!range) return buildInfo(h, null);
  const table = buf.subarray(range.offset, range.offset + range.length);
  const loc = findInterp(h, table, buf.length);
  const interp = loc ? decodeInterp(buf.subarray(loc.offset, loc.offset + loc.size)) : null;
  return buildInfo(h, interp);
}

/** Read ELF info from a file with at most three small bounded reads (never the whole file). */
export async function readElfFile(path: string): Promise<ElfInfo> {
  const fh = await open(path, 'r');
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new ElfFormatError('not a regular file', { path });
    const size = st.size;
    const readAt = async (offset: number, length: number): Promise<Buffer> => {
      const b = Buffer.alloc(length);
      let got = 0;
      while (got < length) {
        const { bytesRead } = await fh.read(b, got, length - got, offset + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      if (got < length) throw new ElfFormatError('file is shorter than its headers claim', { path });
      return b;
    };
    const head = await readAt(0, Math.min(HEADER_BYTES, size));
    const h = parseHeader(head);
    const range = phdrRange(h, size);
    if (!range) return buildInfo(h, null);
    const table = await readAt(range.offset, range.length);
    const loc = findInterp(h, table, size);
    const interp = loc ? decodeInterp(await readAt(loc.offset, loc.size)) : null;
    return buildInfo(h, interp);
  } finally {
    await fh.close();
  }
}
