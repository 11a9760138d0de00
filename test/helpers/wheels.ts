import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** Builds pure-python wheels for tests: the machines reach no package index, so pip installs these with --no-index --find-links. */

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of data) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** 1980-01-01 00:00 in MS-DOS format; a fixed stamp keeps wheels reproducible. */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

/** A zip archive (deflate, no zip64) of the given files, in the given order. */
export function writeZip(files: readonly { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const f of files) {
    const name = Buffer.from(f.name, 'utf8');
    const packed = zlib.deflateRawSync(f.data);
    const crc = crc32(f.data);
    const flags = /[^\x20-\x7e]/.test(f.name) ? 0x0800 : 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(f.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, so the external attributes carry a mode
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(f.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

export interface WheelOptions {
  /** Project name as published, e.g. `skd-demo`. */
  name: string;
  version: string;
  /** Files of the wheel's root (purelib), e.g. `{ 'skd_demo/__init__.py': '__version__ = "1.0.0"' }`. */
  modules: Record<string, string>;
  summary?: string;
  requires?: string[];
  /** Console scripts: script name → `module:function`. */
  consoleScripts?: Record<string, string>;
}

/** `skd-demo` → `skd_demo`, the escaped name used in wheel file names and dist-info dirs. */
export function wheelEscape(name: string): string {
  return name.replace(/[-_.]+/g, '_');
}

function recordHash(data: Buffer): string {
  return `sha256=${crypto.createHash('sha256').update(data).digest('base64url')}`;
}

/** Writes `{name}-{version}-py3-none-any.whl` into `dir` and returns its path. */
export function buildWheel(dir: string, opts: WheelOptions): string {
  const base = `${wheelEscape(opts.name)}-${opts.version}`;
  const distInfo = `${base}.dist-info`;
  const metadata = [
    'Metadata-Version: 2.1',
    `Name: ${opts.name}`,
    `Version: ${opts.version}`,
    `Summary: ${opts.summary ?? `${opts.name} test package`}`,
    ...(opts.requires ?? []).map((r) => `Requires-Dist: ${r}`),
    '',
    `# ${opts.name}`,
    '',
  ].join('\n');
  const files: { name: string; data: Buffer }[] = Object.entries(opts.modules).map(([name, text]) => ({ name, data: Buffer.from(text) }));
  files.push({ name: `${distInfo}/METADATA`, data: Buffer.from(metadata) });
  files.push({ name: `${distInfo}/WHEEL`, data: Buffer.from('Wheel-Version: 1.0\nGenerator: skilldock-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n') });
  const scripts = Object.entries(opts.consoleScripts ?? {});
  if (scripts.length) {
    const lines = scripts.map(([script, target]) => `${script} = ${target}`);
    files.push({ name: `${distInfo}/entry_points.txt`, data: Buffer.from(`[console_scripts]\n${lines.join('\n')}\n`) });
  }
  const record = files.map((f) => `${f.name},${recordHash(f.data)},${f.data.length}`).concat(`${distInfo}/RECORD,,`, '');
  files.push({ name: `${distInfo}/RECORD`, data: Buffer.from(record.join('\n')) });
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${base}-py3-none-any.whl`);
  fs.writeFileSync(file, writeZip(files));
  return file;
}
