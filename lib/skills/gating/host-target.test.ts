import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHostTarget } from './host-target';

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-host-target-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function writeBin(dir: string, name: string, mode: number): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  fs.writeFileSync(file, '#!/bin/sh\necho hi\n');
  fs.chmodSync(file, mode);
  return file;
}

describe('createHostTarget', () => {
  it('finds regular executable files only: not a plain file, not a directory named like the bin', async () => {
    const bin = path.join(tmp, 'bin');
    const exe = writeBin(bin, 'sd-exe-tool', 0o755);
    writeBin(bin, 'sd-plain-file', 0o644);
    fs.mkdirSync(path.join(bin, 'sd-dir-tool'));
    const target = createHostTarget({ pathDirs: [bin], env: {} });
    const found = await target.which(['sd-exe-tool', 'sd-plain-file', 'sd-dir-tool', 'sd-not-there']);
    expect(found).toEqual({ 'sd-exe-tool': exe, 'sd-plain-file': null, 'sd-dir-tool': null, 'sd-not-there': null });
  });

  it('a directory named like the bin does not hide a real binary later on the path', async () => {
    const first = path.join(tmp, 'first');
    fs.mkdirSync(path.join(first, 'sd-shadowed'), { recursive: true });
    const real = writeBin(path.join(tmp, 'second'), 'sd-shadowed', 0o755);
    const target = createHostTarget({ pathDirs: [first, path.join(tmp, 'second')], env: {} });
    expect((await target.which(['sd-shadowed']))['sd-shadowed']).toBe(real);
  });

  it('follows symlinks to executables and refuses dangling ones', async () => {
    const bin = path.join(tmp, 'bin');
    const real = writeBin(path.join(tmp, 'store'), 'sd-real', 0o755);
    fs.mkdirSync(bin);
    fs.symlinkSync(real, path.join(bin, 'sd-link'));
    fs.symlinkSync(path.join(tmp, 'gone'), path.join(bin, 'sd-dangling'));
    const target = createHostTarget({ pathDirs: [bin], env: {} });
    const found = await target.which(['sd-link', 'sd-dangling']);
    expect(found['sd-link']).toBe(path.join(bin, 'sd-link'));
    expect(found['sd-dangling']).toBeNull();
  });

  it('searches extraDirs first, then PATH from env, then the system folders', async () => {
    const extra = path.join(tmp, 'runtime-bin');
    const onPath = path.join(tmp, 'path-bin');
    const fromExtra = writeBin(extra, 'sd-both', 0o755);
    writeBin(onPath, 'sd-both', 0o755);
    const onlyPath = writeBin(onPath, 'sd-path-only', 0o755);
    const target = createHostTarget({ extraDirs: [extra], env: { PATH: onPath } });
    expect(await target.which(['sd-both', 'sd-path-only'])).toEqual({ 'sd-both': fromExtra, 'sd-path-only': onlyPath });
    expect(target.searchDirs().slice(0, 2)).toEqual([extra, onPath]);
    expect(target.searchDirs()).toContain('/usr/bin');
    // `sh` lives in a system folder on every Linux host even with an empty PATH
    expect((await createHostTarget({ env: {} }).which(['sh'])).sh).toMatch(/\/sh$/);
  });

  it('refuses names that are paths', async () => {
    const exe = writeBin(path.join(tmp, 'bin'), 'sd-x', 0o755);
    const target = createHostTarget({ pathDirs: [path.join(tmp, 'bin')], env: {} });
    expect(await target.which([exe, '../bin/sd-x', ''])).toEqual({ [exe]: null, '../bin/sd-x': null, '': null });
  });

  it('caches a miss until invalidate(), then finds the new binary', async () => {
    const bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin);
    const target = createHostTarget({ pathDirs: [bin], env: {} });
    expect((await target.which(['sd-late']))['sd-late']).toBeNull();
    const file = writeBin(bin, 'sd-late', 0o755);
    expect((await target.which(['sd-late']))['sd-late']).toBeNull(); // still the cached miss
    target.invalidate();
    expect((await target.which(['sd-late']))['sd-late']).toBe(file);
  });

  it('a PATH change in the env drops the cache', async () => {
    const a = path.join(tmp, 'a');
    const b = path.join(tmp, 'b');
    fs.mkdirSync(a);
    const inB = writeBin(b, 'sd-moved', 0o755);
    const env: Record<string, string | undefined> = { PATH: a };
    const target = createHostTarget({ env });
    expect((await target.which(['sd-moved']))['sd-moved']).toBeNull();
    env.PATH = `${a}${path.delimiter}${b}`;
    expect((await target.which(['sd-moved']))['sd-moved']).toBe(inB);
  });

  it('a miss expires after missTtlMs even without invalidate', async () => {
    const bin = path.join(tmp, 'bin');
    fs.mkdirSync(bin);
    const target = createHostTarget({ pathDirs: [bin], env: {}, missTtlMs: 0 });
    expect((await target.which(['sd-hand']))['sd-hand']).toBeNull();
    const file = writeBin(bin, 'sd-hand', 0o755);
    expect((await target.which(['sd-hand']))['sd-hand']).toBe(file);
  });
});
