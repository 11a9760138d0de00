/**
 * Byte-exact archive builders for the hostile corpus: tar headers (with PAX records) and zip
 * local/central records are written by hand, so a test can put any raw name, type, flag,
 * CRC or size into an archive — things no well-behaved archiver would write.
 */
import zlib from 'node:zlib';

export type TarType = 'file' | 'dir' | 'symlink' | 'hardlink' | 'char' | 'block' | 'fifo';

export interface TarSpec {
  name: string | Buffer;
  type?: TarType;
  data?: string | Buffer;
  linkname?: string;
  mode?: number;
}

const TYPEFLAG: Record<TarType, string> = { file: '0', hardlink: '1', symlink: '2', char: '3', block: '4', dir: '5', fifo: '6' };

function octal(buf: Buffer, off: number, len: number, value: number): void {
  buf.write(value.toString(8).padStart(len - 1, '0') + '\0', off, len, 'latin1');
}

function header(name: Buffer, type: string, size: number, mode: number, linkname = ''): Buffer {
  const h = Buffer.alloc(512);
  name.copy(h, 0, 0, Math.min(100, name.length));
  octal(h, 100, 8, mode);
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  octal(h, 124, 12, size);
  octal(h, 136, 12, 1_700_000_000);
  h.write(type, 156, 1, 'latin1');
  h.write(linkname, 157, 100, 'utf8');
  h.write('ustar\0', 257, 6, 'latin1');
  h.write('00', 263, 2, 'latin1');
  h.fill(0x20, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 8, 'latin1');
  return h;
}

const pad = (n: number) => Buffer.alloc((512 - (n % 512)) % 512);

/** One PAX record "len key=value\n", where len counts the whole record. */
function paxRecord(key: string, value: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(` ${key}=`), value, Buffer.from('\n')]);
  let len = body.length + 1;
  while (String(len).length + body.length !== len) len += 1;
  return Buffer.concat([Buffer.from(String(len)), body]);
}

/** A tar archive; names longer than 100 bytes or holding a NUL go into a PAX `path` record. */
export function buildTar(entries: TarSpec[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const type = e.type ?? 'file';
    const name = Buffer.isBuffer(e.name) ? e.name : Buffer.from(e.name, 'utf8');
    if (name.length > 100 || name.includes(0)) {
      const pax = paxRecord('path', name);
      parts.push(header(Buffer.from('PaxHeader/entry'), 'x', pax.length, 0o644), pax, pad(pax.length));
    }
    const data = type === 'file' ? (Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '', 'utf8')) : Buffer.alloc(0);
    const mode = e.mode ?? (type === 'dir' ? 0o755 : 0o644);
    parts.push(header(name, TYPEFLAG[type], data.length, mode, e.linkname), data, pad(data.length));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

export const gzip = (b: Buffer) => zlib.gzipSync(b, { level: 9 });

export interface ZipSpec {
  name: string | Buffer;
  /** Name written in the local header when it must differ from the central directory's. */
  localName?: string | Buffer;
  data?: string | Buffer;
  /** Default deflate. */
  method?: 'store' | 'deflate';
  /** Override the CRC-32 recorded in both headers. */
  crc?: number;
  /** Override the uncompressed size recorded in both headers. */
  declaredSize?: number;
  /** General purpose flags (bit 0 = encrypted). */
  flags?: number;
  /** Unix st_mode stored in the external attributes (default 0o100644; 0o040755 for names ending in "/"). */
  unixMode?: number;
}

const asBuf = (v: string | Buffer | undefined) => (Buffer.isBuffer(v) ? v : Buffer.from(v ?? '', 'utf8'));

/** A zip archive written record by record (no zip64: fewer than 65,536 entries). */
export function buildZip(entries: ZipSpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = asBuf(e.name);
    const localName = e.localName !== undefined ? asBuf(e.localName) : name;
    const data = asBuf(e.data);
    const method = e.method === 'store' ? 0 : 8;
    const body = method === 8 ? zlib.deflateRawSync(data) : data;
    const crc = (e.crc ?? zlib.crc32(data)) >>> 0;
    const size = e.declaredSize ?? data.length;
    // bit 11: the name is UTF-8 (else readers decode it as CP437)
    const flags = e.flags ?? (name.some((b) => b > 0x7f) ? 0x800 : 0);
    const mode = e.unixMode ?? (name.toString('latin1').endsWith('/') ? 0o040755 : 0o100644);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x5821, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(localName.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x5821, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, localName, body);
    centrals.push(central, name);
    offset += 30 + localName.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

export const SKILL_MD = '---\nname: demo-skill\ndescription: A demo skill used by the archive tests.\n---\n\n# Demo\n\nRun scripts/run.sh.\n';
