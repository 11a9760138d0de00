import fs from 'node:fs';
import { runProcess } from '../../core/process';

export type Libc = 'glibc' | 'musl' | 'unknown';

const ARCH: Partial<Record<NodeJS.Architecture, string>> = {
  x64: 'x86_64',
  arm64: 'aarch64',
  arm: 'armv7l',
  ia32: 'i686',
  riscv64: 'riscv64',
  s390x: 's390x',
  ppc64: 'ppc64le',
};

/** Node's arch name in the form release assets and `uname -m` use. */
export function machineArch(arch: NodeJS.Architecture = process.arch): string {
  return ARCH[arch] ?? arch;
}

const PT_INTERP = 3;

/** The PT_INTERP (dynamic loader) of an ELF file, or null when it has none or is not ELF. */
export function readElfInterpreter(file: string): string | null {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const head = Buffer.alloc(64);
    if (fs.readSync(fd, head, 0, 64, 0) < 52) return null;
    if (head.readUInt32BE(0) !== 0x7f454c46) return null;
    const is64 = head[4] === 2;
    const le = head[5] === 1;
    const u16 = (b: Buffer, o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
    const u32 = (b: Buffer, o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
    const u64 = (b: Buffer, o: number) => Number(le ? b.readBigUInt64LE(o) : b.readBigUInt64BE(o));
    const phoff = is64 ? u64(head, 32) : u32(head, 28);
    const phentsize = u16(head, is64 ? 54 : 42);
    const phnum = u16(head, is64 ? 56 : 44);
    if (phnum === 0 || phnum > 512 || phentsize < (is64 ? 56 : 32)) return null;
    const table = Buffer.alloc(phentsize * phnum);
    fs.readSync(fd, table, 0, table.length, phoff);
    for (let i = 0; i < phnum; i++) {
      const ph = table.subarray(i * phentsize);
      if (u32(ph, 0) !== PT_INTERP) continue;
      const offset = is64 ? u64(ph, 8) : u32(ph, 4);
      const size = is64 ? u64(ph, 32) : u32(ph, 16);
      if (size === 0 || size > 4096) return null;
      const buf = Buffer.alloc(size);
      fs.readSync(fd, buf, 0, size, offset);
      return buf.toString('latin1').replace(/\0.*$/s, '');
    }
    return null;
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

export interface LibcInfo {
  libc: Libc;
  version?: string;
  /** The dynamic loader the check was based on, when one was found. */
  interpreter?: string;
}

function libcFromLoader(): Libc {
  for (const dir of ['/lib', '/usr/lib']) {
    try {
      if (fs.readdirSync(/*turbopackIgnore: true*/ dir).some((f) => f.startsWith('ld-musl-'))) return 'musl';
    } catch {
      /* folder absent */
    }
  }
  return 'unknown';
}

/** glibc or musl, from the loader `binary` (default: this node) was linked against, with the libc version. */
export async function detectLibc(opts: { binary?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<LibcInfo> {
  const interpreter = readElfInterpreter(opts.binary ?? process.execPath) ?? undefined;
  let libc: Libc = 'unknown';
  if (interpreter?.includes('ld-musl')) libc = 'musl';
  else if (interpreter && /ld-linux|ld64\.so|ld\.so/.test(interpreter)) libc = 'glibc';
  else libc = libcFromLoader();
  const run = { env: opts.env, timeoutMs: opts.timeoutMs ?? 5000, maxOutputBytes: 16 * 1024 };
  let version: string | undefined;
  if (libc !== 'musl') {
    const r = await runProcess('getconf', ['GNU_LIBC_VERSION'], run).catch(() => null);
    version = r?.code === 0 ? /glibc\s+(\S+)/.exec(r.stdout)?.[1] : undefined;
    if (version && libc === 'unknown') libc = 'glibc';
  }
  if (!version) {
    // glibc's ldd prints "ldd (…) 2.36" on stdout; musl's prints "Version 1.2.4" on stderr and exits 1.
    const r = await runProcess('ldd', ['--version'], run).catch(() => null);
    const text = `${r?.stdout ?? ''}\n${r?.stderr ?? ''}`;
    if (/musl/i.test(text)) {
      libc = 'musl';
      version = /Version\s+(\S+)/.exec(text)?.[1];
    } else if (/GLIBC|GNU libc/i.test(text)) {
      libc = 'glibc';
      version = /\s(\d+\.\d+(?:\.\d+)?)\s*$/m.exec(r?.stdout.split('\n')[0] ?? '')?.[1];
    }
  }
  return { libc, ...(version ? { version } : {}), ...(interpreter ? { interpreter } : {}) };
}

/** KEY=value pairs of an os-release file, quotes removed. */
export function parseOsRelease(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]] = m[2].replace(/^(["'])(.*)\1$/, '$2').replace(/\\(.)/g, '$1');
  }
  return out;
}

export function readTextFile(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}
