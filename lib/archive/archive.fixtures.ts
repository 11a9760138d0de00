/**
 * Test helpers for archive extraction: real archives built with the real tools
 * (tar, gzip, xz, bzip2, zstd, zip) and hostile ones crafted with Python's tarfile/zipfile.
 * Every process is started with an argument array.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);

export function hasTool(name: string): boolean {
  try {
    execFileSync('which', [name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Debian's python3 starts in a fraction of the time of a pyenv shim; either has tarfile/zipfile. */
export const PYTHON = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

const dirs: string[] = [];
export function tmpDir(prefix = 'skilldock-archive-'): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
}
export function cleanupTmp(): void {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

export const ELF_SOURCE = '/bin/true';
export const SCRIPT = '#!/bin/sh\necho installing\n';
export const README = '# tool\n\nA README.\n';

/** A release tree: an ELF, a README, a nested dir and an executable shell script, under `tool-1.0/`. */
export function makeReleaseTree(): { root: string; top: string } {
  const root = tmpDir('skilldock-src-');
  const top = path.join(root, 'tool-1.0');
  fs.mkdirSync(path.join(top, 'share/doc/nested'), { recursive: true });
  fs.copyFileSync(ELF_SOURCE, path.join(top, 'tool'));
  fs.chmodSync(path.join(top, 'tool'), 0o755);
  fs.writeFileSync(path.join(top, 'README.md'), README, { mode: 0o644 });
  fs.writeFileSync(path.join(top, 'share/doc/nested/notes.txt'), 'nested\n', { mode: 0o600 });
  fs.writeFileSync(path.join(top, 'install.sh'), SCRIPT);
  fs.chmodSync(path.join(top, 'install.sh'), 0o750);
  return { root, top };
}

/** Compress `file` in place with a real compressor; returns the new path. */
export async function compress(tool: 'gzip' | 'xz' | 'bzip2' | 'zstd', file: string): Promise<string> {
  const suffix = { gzip: '.gz', xz: '.xz', bzip2: '.bz2', zstd: '.zst' }[tool];
  const args = tool === 'zstd' ? ['-q', '-f', '--rm', file] : ['-f', file];
  await run(tool, args);
  return file + suffix;
}

const TAR_SCRIPT = `
import sys, json, tarfile, io
spec = json.loads(sys.argv[1])
mode = 'w:gz' if spec.get('gzip') else 'w'
fmt = tarfile.GNU_FORMAT if spec.get('gnu') else tarfile.PAX_FORMAT
with tarfile.open(spec['out'], mode, format=fmt) as t:
    entries = list(spec.get('entries', []))
    for i in range(spec.get('many', 0)):
        entries.append({'name': 'many/%05d' % i})
    for e in entries:
        ti = tarfile.TarInfo(e['name'])
        ti.mode = e.get('mode', 0o644)
        ty = e.get('type', 'file')
        data = None
        if ty == 'file':
            data = (b'\\0' * e['zeros']) if 'zeros' in e else e.get('data', '').encode()
            ti.size = len(data)
        elif ty == 'dir':
            ti.type = tarfile.DIRTYPE
        elif ty == 'sym':
            ti.type = tarfile.SYMTYPE; ti.linkname = e['link']
        elif ty == 'hard':
            ti.type = tarfile.LNKTYPE; ti.linkname = e['link']
        elif ty == 'chr':
            ti.type = tarfile.CHRTYPE; ti.devmajor = 1; ti.devminor = 3
        elif ty == 'blk':
            ti.type = tarfile.BLKTYPE; ti.devmajor = 8; ti.devminor = 0
        elif ty == 'fifo':
            ti.type = tarfile.FIFOTYPE
        t.addfile(ti, io.BytesIO(data) if data is not None else None)
`;

export interface CraftEntry {
  name: string;
  type?: 'file' | 'dir' | 'sym' | 'hard' | 'chr' | 'blk' | 'fifo';
  data?: string;
  zeros?: number;
  mode?: number;
  link?: string;
}

/** A tar (optionally .tar.gz) with arbitrary raw names, written by Python's tarfile. */
export async function craftTar(out: string, entries: CraftEntry[], opts: { gzip?: boolean; many?: number; gnu?: boolean } = {}): Promise<string> {
  await run(PYTHON, ['-c', TAR_SCRIPT, JSON.stringify({ out, entries, ...opts })], { maxBuffer: 1 << 20 });
  return out;
}

const ZIP_SCRIPT = `
import sys, json, zipfile, struct
spec = json.loads(sys.argv[1])
with zipfile.ZipFile(spec['out'], 'w', zipfile.ZIP_DEFLATED) as z:
    entries = list(spec.get('entries', []))
    for i in range(spec.get('many', 0)):
        entries.append({'name': 'many/%05d' % i})
    for e in entries:
        zi = zipfile.ZipInfo(e['name'], (2024, 1, 1, 0, 0, 0))
        zi.create_system = 3
        zi.external_attr = e.get('mode', 0o100644) << 16
        zi.compress_type = zipfile.ZIP_DEFLATED
        data = (b'\\0' * e['zeros']) if 'zeros' in e else e.get('data', '').encode()
        z.writestr(zi, data)
lie = spec.get('lie')
if lie is not None:
    b = bytearray(open(spec['out'], 'rb').read())
    # local file header: uncompressed size at +22; central directory header: at +24
    i = 0
    while True:
        i = b.find(b'PK\\x03\\x04', i)
        if i < 0: break
        struct.pack_into('<I', b, i + 22, lie); i += 4
    i = 0
    while True:
        i = b.find(b'PK\\x01\\x02', i)
        if i < 0: break
        struct.pack_into('<I', b, i + 24, lie); i += 4
    open(spec['out'], 'wb').write(bytes(b))
`;

/** A zip with arbitrary raw names and unix modes, written by Python's zipfile; `lie` rewrites every declared uncompressed size. */
export async function craftZip(out: string, entries: CraftEntry[], opts: { many?: number; lie?: number } = {}): Promise<string> {
  await run(PYTHON, ['-c', ZIP_SCRIPT, JSON.stringify({ out, entries, ...opts })], { maxBuffer: 1 << 20 });
  return out;
}

/** Every path under `dir` (relative), for "nothing left behind" assertions. */
export function listTree(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}
