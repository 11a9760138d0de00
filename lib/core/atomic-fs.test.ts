import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  fsyncDir,
  fsyncDirSync,
  isTempName,
  readJsonFile,
  swapSymlink,
  swapSymlinkSync,
  writeFileAtomic,
  writeFileAtomicSync,
  writeJsonAtomic,
} from './atomic-fs';
import { isAppError } from './errors';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-atomic-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const entries = () => fs.readdirSync(dir).sort();

describe('atomic writes', () => {
  it('writes a new file and replaces an existing one, leaving no temp file', async () => {
    const file = path.join(dir, 'a.txt');
    await writeFileAtomic(file, 'one', 0o600);
    expect(fs.readFileSync(file, 'utf8')).toBe('one');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    writeFileAtomicSync(file, Buffer.from('two'));
    expect(fs.readFileSync(file, 'utf8')).toBe('two');
    expect(entries()).toEqual(['a.txt']);
  });

  it('removes its temp file when the rename fails', async () => {
    const target = path.join(dir, 'taken');
    fs.mkdirSync(path.join(target, 'child'), { recursive: true });
    await expect(writeFileAtomic(target, 'x')).rejects.toMatchObject({ code: expect.stringMatching(/EISDIR|ENOTEMPTY|EEXIST/) });
    expect(() => writeFileAtomicSync(target, 'x')).toThrow();
    expect(entries()).toEqual(['taken']);
  });

  it('round-trips JSON and reads a missing file as null', async () => {
    await writeJsonAtomic(path.join(dir, 'v.json'), { a: [1, 'é'] });
    expect(await readJsonFile(path.join(dir, 'v.json'))).toEqual({ a: [1, 'é'] });
    expect(await readJsonFile(path.join(dir, 'missing.json'))).toBeNull();
  });
});

describe('symlink swap', () => {
  it('creates and repoints a link by rename', async () => {
    fs.mkdirSync(path.join(dir, 'v1'));
    fs.mkdirSync(path.join(dir, 'v2'));
    const link = path.join(dir, 'current');
    await swapSymlink(link, 'v1');
    expect(fs.readlinkSync(link)).toBe('v1');
    swapSymlinkSync(link, 'v2');
    expect(fs.readlinkSync(link)).toBe('v2');
    expect(entries()).toEqual(['current', 'v1', 'v2']);
  });

  it('refuses to replace a non-empty folder, as swap_failed, and cleans up its temp link', async () => {
    const link = path.join(dir, 'current');
    fs.mkdirSync(path.join(link, 'inside'), { recursive: true });
    const err = await swapSymlink(link, 'v1').catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('swap_failed');
    let syncErr: unknown;
    try {
      swapSymlinkSync(link, 'v1');
    } catch (e) {
      syncErr = e;
    }
    expect(isAppError(syncErr) && syncErr.code).toBe('swap_failed');
    expect(entries().filter(isTempName)).toEqual([]);
  });
});

describe('directory fsync failure rule', () => {
  it('ignores a filesystem that cannot fsync a directory (procfs answers EINVAL)', async () => {
    await expect(fsyncDir('/proc')).resolves.toBeUndefined();
    expect(() => fsyncDirSync('/proc')).not.toThrow();
  });

  it('throws every other error', async () => {
    await expect(fsyncDir(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(() => fsyncDirSync(path.join(dir, 'missing'))).toThrow(/ENOENT/);
  });
});
