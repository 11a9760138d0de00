import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { detectFormat, type ExtractResult, extractArchive, normalizeEntryName, stripCompressionSuffix } from './archive';
import { cleanupTmp, compress, ELF_SOURCE, hasTool, listTree, makeReleaseTree, PYTHON, README, run, SCRIPT, tmpDir } from './archive.fixtures';

const HAS_ZSTD = hasTool('zstd');
const HAS_ZIP = hasTool('zip');
if (!HAS_ZSTD) console.warn('zstd is not installed on this machine: the tar.zst and .zst cases are skipped.');

afterAll(cleanupTmp);

const ELF = fs.readFileSync(ELF_SOURCE);

function byPath(r: ExtractResult) {
  return new Map(r.entries.map((e) => [e.path, e]));
}

/** The release tree must come out byte-identical with clamped modes, whatever the container. */
function expectReleaseTree(r: ExtractResult, dest: string) {
  const m = byPath(r);
  const tool = m.get('tool-1.0/tool');
  expect(tool?.type).toBe('file');
  expect(tool?.mode).toBe(0o755);
  expect(tool?.size).toBe(ELF.length);
  expect(tool?.head.equals(ELF.subarray(0, 256))).toBe(true);
  expect(fs.readFileSync(path.join(dest, 'tool-1.0/tool')).equals(ELF)).toBe(true);
  expect(fs.statSync(path.join(dest, 'tool-1.0/tool')).mode & 0o7777).toBe(0o755);

  expect(m.get('tool-1.0/README.md')?.mode).toBe(0o644);
  expect(fs.readFileSync(path.join(dest, 'tool-1.0/README.md'), 'utf8')).toBe(README);
  expect(fs.statSync(path.join(dest, 'tool-1.0/README.md')).mode & 0o7777).toBe(0o644);

  // 0600 in the archive → 0644 on disk
  expect(m.get('tool-1.0/share/doc/nested/notes.txt')?.mode).toBe(0o644);
  expect(fs.statSync(path.join(dest, 'tool-1.0/share/doc/nested/notes.txt')).mode & 0o7777).toBe(0o644);
  expect(fs.readFileSync(path.join(dest, 'tool-1.0/share/doc/nested/notes.txt'), 'utf8')).toBe('nested\n');

  // 0750 script → 0755, head is its shebang
  const script = m.get('tool-1.0/install.sh');
  expect(script?.mode).toBe(0o755);
  expect(script?.head.toString()).toBe(SCRIPT);
  expect(fs.statSync(path.join(dest, 'tool-1.0/install.sh')).mode & 0o7777).toBe(0o755);

  expect(m.get('tool-1.0/share/doc/nested')?.type).toBe('dir');
  expect(fs.statSync(path.join(dest, 'tool-1.0/share/doc/nested')).mode & 0o7777).toBe(0o755);
  for (const e of r.entries) expect(e.path).not.toMatch(/^\.|\/\.\.?\/|\\/);
  expect(r.skipped).toEqual([]);
}

describe('detectFormat', () => {
  const at257 = (s: string) => {
    const b = Buffer.alloc(512);
    b.write(s, 257, 'latin1');
    return b;
  };
  it.each([
    [Buffer.from([0x1f, 0x8b, 8, 0]), 'gzip'],
    [Buffer.from('PK\x03\x04rest', 'latin1'), 'zip'],
    [Buffer.from('PK\x05\x06', 'latin1'), 'zip'],
    [Buffer.from('\x7fELF\x02\x01', 'latin1'), 'elf'],
    [Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0, 4]), 'xz'],
    [Buffer.from('BZh91AY&SY', 'latin1'), 'bzip2'],
    [Buffer.from('BZhx', 'latin1'), 'unknown'],
    [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x24]), 'zstd'],
    [at257('ustar\x0000'), 'tar'],
    [at257('ustar  \x00'), 'tar'],
    [Buffer.from('#!/bin/sh\n'), 'script'],
    [Buffer.from('MZ\x90\x00', 'latin1'), 'unknown'],
    [Buffer.alloc(0), 'unknown'],
  ] as const)('%#: %s', (head, want) => {
    expect(detectFormat(head)).toBe(want);
  });

  it('reads the magic of real files', () => {
    expect(detectFormat(ELF.subarray(0, 512))).toBe('elf');
  });
});

describe('normalizeEntryName', () => {
  it('keeps safe names and drops ./ and empty segments', () => {
    expect(normalizeEntryName('./tool-1.0//bin/./tool')).toBe('tool-1.0/bin/tool');
    expect(normalizeEntryName('./')).toBe('');
    expect(normalizeEntryName('dir/')).toBe('dir');
    expect(normalizeEntryName('a..b/..c')).toBe('a..b/..c');
  });
  it.each(['../evil', 'a/../../evil', 'a/..', '/etc/passwd', 'C:/evil', 'c:evil', 'a\\..\\evil', 'a\0b', 'x/' + 'n'.repeat(256)])('rejects %j', (name) => {
    let err: unknown;
    try {
      normalizeEntryName(name);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('unsafe_archive');
    expect((err as AppError).status).toBe(422);
  });
  it('strips compression suffixes for single-file assets', () => {
    expect(stripCompressionSuffix('tool-linux-amd64.gz')).toBe('tool-linux-amd64');
    expect(stripCompressionSuffix('tool.XZ')).toBe('tool');
    expect(stripCompressionSuffix('tool.zst')).toBe('tool');
    expect(stripCompressionSuffix('../.gz')).toBe('asset');
  });
});

describe('extractArchive on archives made by the real tools', () => {
  let tree: { root: string; top: string };
  let tarFile: string;
  beforeAll(async () => {
    tree = makeReleaseTree();
    const out = tmpDir();
    tarFile = path.join(out, 'tool.tar');
    await run('tar', ['-cf', tarFile, '-C', tree.root, 'tool-1.0']);
  });

  async function tarWith(tool: 'gzip' | 'xz' | 'bzip2' | 'zstd') {
    const dir = tmpDir();
    const copy = path.join(dir, 'tool.tar');
    fs.copyFileSync(tarFile, copy);
    return compress(tool, copy);
  }

  it('plain tar', async () => {
    const dest = path.join(tmpDir(), 'out');
    const r = await extractArchive(tarFile, dest);
    expect(r.format).toBe('tar');
    expectReleaseTree(r, dest);
  });

  it.each([
    ['gzip', 'tar.gz'],
    ['xz', 'tar.xz'],
    ['bzip2', 'tar.bz2'],
  ] as const)('tar compressed with %s', async (tool, format) => {
    const file = await tarWith(tool);
    const dest = path.join(tmpDir(), 'out');
    const r = await extractArchive(file, dest);
    expect(r.format).toBe(format);
    expectReleaseTree(r, dest);
  });

  it.skipIf(!HAS_ZSTD)('tar compressed with zstd', async () => {
    const file = await tarWith('zstd');
    const dest = path.join(tmpDir(), 'out');
    const r = await extractArchive(file, dest);
    expect(r.format).toBe('tar.zst');
    expectReleaseTree(r, dest);
  });

  it('tar.gz made with `tar -czf -C dir .` (a ./ root entry)', async () => {
    const file = path.join(tmpDir(), 'dot.tgz');
    await run('tar', ['-czf', file, '-C', tree.root, '.']);
    const dest = tmpDir(); // existing empty dir is accepted
    const r = await extractArchive(file, dest);
    expect(r.format).toBe('tar.gz');
    expect(r.entries.some((e) => e.path === '' || e.path === '.')).toBe(false);
    expectReleaseTree(r, dest);
  });

  it('files keepFile refuses are read through (counted, head kept) but never written', async () => {
    const file = path.join(tmpDir(), 'keep.tgz');
    await run('tar', ['-czf', file, '-C', tree.root, 'tool-1.0']);
    const dest = tmpDir();
    const r = await extractArchive(file, dest, { keepFile: (p) => !p.endsWith('.md') && !p.endsWith('.txt') });
    const readme = r.entries.find((e) => e.path === 'tool-1.0/README.md')!;
    expect(readme).toMatchObject({ type: 'file', written: false, size: Buffer.byteLength(README) });
    expect(readme.head.toString()).toBe(README.slice(0, 256));
    expect(fs.existsSync(path.join(dest, 'tool-1.0/README.md'))).toBe(false);
    expect(fs.existsSync(path.join(dest, 'tool-1.0/share/doc/nested/notes.txt'))).toBe(false);
    expect(fs.readFileSync(path.join(dest, 'tool-1.0/tool')).equals(ELF)).toBe(true);
    expect(r.entries.find((e) => e.path === 'tool-1.0/tool')?.written).toBeUndefined();
  });

  it('zip (unix modes kept by zip -r)', async () => {
    const file = path.join(tmpDir(), 'tool.zip');
    if (HAS_ZIP) {
      await run('zip', ['-q', '-r', '-X', file, 'tool-1.0'], { cwd: tree.root });
    } else {
      const script = 'import sys, shutil; shutil.make_archive(sys.argv[1][:-4], "zip", sys.argv[2], "tool-1.0")';
      await run(PYTHON, ['-c', script, file, tree.root]);
    }
    const dest = path.join(tmpDir(), 'out');
    const r = await extractArchive(file, dest);
    expect(r.format).toBe('zip');
    expectReleaseTree(r, dest);
  });

  it.each([['gzip', 'gz'], ['xz', 'xz'], ['bzip2', 'bz2'], ...(HAS_ZSTD ? ([['zstd', 'zst']] as const) : [])] as const)(
    'a single %s-compressed ELF becomes one executable named after the asset',
    async (tool, format) => {
      const dir = tmpDir();
      const raw = path.join(dir, 'tool-linux-amd64');
      fs.copyFileSync(ELF_SOURCE, raw);
      const file = await compress(tool, raw);
      const dest = path.join(tmpDir(), 'out');
      const r = await extractArchive(file, dest, { fileName: path.basename(file) });
      expect(r.format).toBe(format);
      expect(r.entries.map((e) => [e.path, e.type, e.mode, e.size])).toEqual([['tool-linux-amd64', 'file', 0o755, ELF.length]]);
      expect(fs.readFileSync(path.join(dest, 'tool-linux-amd64')).equals(ELF)).toBe(true);
      expect(fs.statSync(path.join(dest, 'tool-linux-amd64')).mode & 0o7777).toBe(0o755);
    },
  );

  it('a single .gz of a text file is kept as 0644', async () => {
    const raw = path.join(tmpDir(), 'notes.txt');
    fs.writeFileSync(raw, 'hello\n');
    const file = await compress('gzip', raw);
    const dest = path.join(tmpDir(), 'out');
    const r = await extractArchive(file, dest);
    expect(r.entries.map((e) => [e.path, e.mode])).toEqual([['notes.txt', 0o644]]);
  });

  it('a raw ELF asset is one 0755 file named after the asset', async () => {
    const file = path.join(tmpDir(), 'download.bin');
    fs.copyFileSync(ELF_SOURCE, file);
    fs.chmodSync(file, 0o600);
    const dest = path.join(tmpDir(), 'out');
    const r = await extractArchive(file, dest, { fileName: 'tool_linux_x86_64' });
    expect(r.format).toBe('elf');
    expect(r.entries).toHaveLength(1);
    expect(r.entries[0]).toMatchObject({ path: 'tool_linux_x86_64', type: 'file', mode: 0o755, size: ELF.length });
    expect(fs.readFileSync(path.join(dest, 'tool_linux_x86_64')).equals(ELF)).toBe(true);
  });

  it('a raw shebang script asset is kept as a script', async () => {
    const file = path.join(tmpDir(), 'tool.sh');
    fs.writeFileSync(file, SCRIPT);
    const dest = path.join(tmpDir(), 'out');
    const r = await extractArchive(file, dest);
    expect(r.format).toBe('script');
    expect(r.entries[0]).toMatchObject({ path: 'tool.sh', mode: 0o755 });
  });

  it('an unknown format fails with unsupported_format and creates nothing', async () => {
    const file = path.join(tmpDir(), 'tool.exe');
    fs.writeFileSync(file, Buffer.from('MZ\x90\x00 not a linux binary', 'latin1'));
    const dest = path.join(tmpDir(), 'out');
    await expect(extractArchive(file, dest)).rejects.toMatchObject({ code: 'unsupported_format', status: 422 });
    expect(fs.existsSync(dest)).toBe(false);
  });

  it('refuses a destination that is not empty', async () => {
    const dest = tmpDir();
    fs.writeFileSync(path.join(dest, 'keep'), 'x');
    await expect(extractArchive(tarFile, dest)).rejects.toMatchObject({ code: 'conflict' });
    expect(listTree(dest)).toEqual(['keep']);
  });

  it('a truncated tar.gz fails as corrupt and leaves nothing behind', async () => {
    const file = await tarWith('gzip');
    const buf = fs.readFileSync(file);
    fs.writeFileSync(file, buf.subarray(0, Math.floor(buf.length / 2)));
    const dest = tmpDir();
    await expect(extractArchive(file, dest)).rejects.toMatchObject({ code: 'unsafe_archive' });
    expect(listTree(dest)).toEqual([]);
  });

  it('a corrupt .bz2 fails and leaves nothing behind', async () => {
    const file = await tarWith('bzip2');
    const buf = Buffer.from(fs.readFileSync(file));
    for (let i = 200; i < 260; i++) buf[i] = buf[i]! ^ 0xff;
    fs.writeFileSync(file, buf);
    const dest = tmpDir();
    await expect(extractArchive(file, dest)).rejects.toBeInstanceOf(AppError);
    expect(listTree(dest)).toEqual([]);
  });
});
