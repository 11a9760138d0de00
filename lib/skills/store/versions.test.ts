/** Installing, replacing, rolling back and removing versions; lock.json / origin.json shapes; failure rollback. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isAppError } from '@/lib/core/errors';
import { contentHash, listSkillFiles } from '../files';
import { cleanupStores, linkTarget, lockOf, makeStore, readJson, stage, V1, V2 } from './store.fixtures';
import { activeVersion, listVersions, removeSkill, setPinned } from './store-state';
import { activateVersion, installVersion } from './versions';

afterAll(cleanupStores);

const codeOf = (e: unknown) => (isAppError(e) ? e.code : String(e));

describe('installVersion', () => {
  it('installs v1: folder in the store, symlink in the managed root, lock entry, manifest', async () => {
    const store = makeStore();
    const staged = await stage(store, V1);
    const r = await installVersion(store, { slug: 'demo', stagedDir: staged, force: false });
    expect(r).toMatchObject({ slug: 'demo', version: 'v1', dir: path.join(store.storeDir, 'demo', 'v1'), unchanged: false, installedAt: store.clock.t });
    expect(r.previous).toBeUndefined();
    expect(r.files.map((f) => f.path)).toEqual(['SKILL.md', 'gone.md', 'scripts/run.sh']);
    expect(r.contentHash).toBe(contentHash(await listSkillFiles(r.dir)));
    expect(fs.existsSync(staged)).toBe(false);
    expect(fs.lstatSync(path.join(store.managedRoot, 'demo')).isSymbolicLink()).toBe(true);
    expect(linkTarget(store, 'demo')).toBe(r.dir);
    expect(fs.readFileSync(path.join(store.managedRoot, 'demo', 'SKILL.md'), 'utf8')).toBe(V1['SKILL.md']);
    // ClawHub lock.json, exactly: version 1, installedAt as epoch ms (a number)
    expect(lockOf(store)).toEqual({ version: 1, skills: { demo: { version: 'v1', installedAt: 1_700_000_000_000 } } });
    expect(r.lockEntry).toEqual({ version: 'v1', installedAt: 1_700_000_000_000 });
    const manifest = readJson(path.join(store.storeDir, 'demo', 'versions.json'));
    expect(manifest).toMatchObject({
      version: 1,
      slug: 'demo',
      versions: [{ version: 'v1', contentHash: r.contentHash, installedAt: store.clock.t, lock: { version: 'v1' } }],
    });
    expect(fs.readdirSync(store.storeDir)).toEqual(['demo']);
    expect(fs.readdirSync(store.managedRoot).sort()).toEqual(['.clawhub', 'demo']);
  });

  it('same content again is unchanged; changed content needs force; force makes v2', async () => {
    const store = makeStore();
    const first = await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false });
    const again = await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false });
    expect(again).toMatchObject({ version: 'v1', unchanged: true, contentHash: first.contentHash, dir: first.dir });
    expect(fs.readdirSync(path.join(store.storeDir, 'demo')).sort()).toEqual(['v1', 'versions.json']);

    const staged = await stage(store, V2);
    const err = await installVersion(store, { slug: 'demo', stagedDir: staged, force: false }).catch((e: unknown) => e);
    expect(codeOf(err)).toBe('exists');
    expect((err as Error).message).toMatch(/Replace it with a new version/);
    expect(fs.existsSync(path.join(staged, 'SKILL.md'))).toBe(true);
    expect(await activeVersion(store, 'demo')).toBe('v1');

    store.clock.t += 60_000;
    const v2 = await installVersion(store, { slug: 'demo', stagedDir: staged, force: true });
    expect(v2).toMatchObject({ version: 'v2', previous: 'v1', unchanged: false });
    expect(v2.contentHash).not.toBe(first.contentHash);
    expect(linkTarget(store, 'demo')).toBe(path.join(store.storeDir, 'demo', 'v2'));
    expect(fs.existsSync(path.join(store.managedRoot, 'demo', 'added.md'))).toBe(true);
    expect(fs.readFileSync(path.join(first.dir, 'SKILL.md'), 'utf8')).toBe(V1['SKILL.md']); // v1 kept for rollback
    expect(lockOf(store)).toEqual({ version: 1, skills: { demo: { version: 'v2', installedAt: 1_700_000_060_000 } } });
    expect((await listVersions(store, 'demo')).map((v) => [v.version, v.active, v.present])).toEqual([
      ['v1', false, true],
      ['v2', true, true],
    ]);
  });

  it('a registry install writes origin.json and the ClawHub lock fields; the archive cannot ship its own', async () => {
    const store = makeStore();
    const staged = await stage(store, { ...V1, '.clawhub/origin.json': '{"forged":true}' });
    const lock = {
      version: '1.2.0',
      ownerHandle: 'alice',
      sourceRef: 'clawhub:demo@1.2.0',
      canonicalRef: 'clawhub:alice/demo',
      registry: 'https://clawhub.ai',
    };
    const r = await installVersion(store, { slug: 'demo', stagedDir: staged, force: false, lock });
    expect(readJson(path.join(r.dir, '.clawhub', 'origin.json'))).toEqual({
      version: 1,
      registry: 'https://clawhub.ai',
      slug: 'demo',
      ownerHandle: 'alice',
      installedVersion: '1.2.0',
      installedAt: 1_700_000_000_000,
      fingerprint: r.contentHash,
    });
    expect(lockOf(store)).toEqual({
      version: 1,
      skills: {
        demo: { version: '1.2.0', installedAt: 1_700_000_000_000, ownerHandle: 'alice', sourceRef: 'clawhub:demo@1.2.0', canonicalRef: 'clawhub:alice/demo' },
      },
    });
    expect(r.contentHash).toBe(contentHash(await listSkillFiles(r.dir))); // .clawhub is not content
  });

  it("keeps other tools' lock entries and fields, and pinning across updates", async () => {
    const store = makeStore();
    fs.mkdirSync(path.join(store.managedRoot, '.clawhub'), { recursive: true });
    const foreign = { version: 1, registry: 'x', skills: { other: { version: '0.1.0', installedAt: 5, clawhubScan: { status: 'clean' } } } };
    fs.writeFileSync(path.join(store.managedRoot, '.clawhub', 'lock.json'), JSON.stringify(foreign));
    await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false });
    await setPinned(store, 'demo', true, 'waiting for review');
    await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V2), force: true });
    expect(lockOf(store)).toEqual({
      ...foreign,
      skills: { ...foreign.skills, demo: { version: 'v2', installedAt: store.clock.t, pinned: true, pinReason: 'waiting for review' } },
    });
    await setPinned(store, 'demo', false);
    expect((lockOf(store).skills as Record<string, object>).demo).toEqual({ version: 'v2', installedAt: store.clock.t });
  });

  it.each(['Demo', '-demo', 'demo-', 'de/mo', '..', 'a'.repeat(65), 'dé', ''])('refuses slug %j', async (slug) => {
    const store = makeStore();
    const staged = await stage(store, V1);
    expect(codeOf(await installVersion(store, { slug, stagedDir: staged, force: true }).catch((e: unknown) => e))).toBe('invalid_slug');
    expect(fs.existsSync(staged)).toBe(true);
  });

  it('refuses a staged folder without SKILL.md or holding a symlink', async () => {
    const store = makeStore();
    const noMd = await stage(store, { 'README.md': 'x' });
    expect(codeOf(await installVersion(store, { slug: 'demo', stagedDir: noMd, force: false }).catch((e: unknown) => e))).toBe('missing_skill_md');
    const withLink = await stage(store, V1);
    fs.symlinkSync('/etc/passwd', path.join(withLink, 'passwd'));
    expect(codeOf(await installVersion(store, { slug: 'demo', stagedDir: withLink, force: false }).catch((e: unknown) => e))).toBe('unsafe_archive');
    expect(fs.existsSync(path.join(store.storeDir, 'demo'))).toBe(false);
  });

  it('never replaces a real folder or a foreign link at managedRoot/<slug>', async () => {
    const store = makeStore();
    fs.mkdirSync(path.join(store.managedRoot, 'demo'), { recursive: true });
    fs.writeFileSync(path.join(store.managedRoot, 'demo', 'SKILL.md'), 'hand-made');
    const err = await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: true }).catch((e: unknown) => e);
    expect(codeOf(err)).toBe('conflict');
    expect(fs.readFileSync(path.join(store.managedRoot, 'demo', 'SKILL.md'), 'utf8')).toBe('hand-made');
    const other = fs.mkdtempSync(path.join(store.root, 'plugin-'));
    fs.symlinkSync(other, path.join(store.managedRoot, 'linked'));
    expect(codeOf(await installVersion(store, { slug: 'linked', stagedDir: await stage(store, V1), force: true }).catch((e: unknown) => e))).toBe('conflict');
    expect(codeOf(await removeSkill(store, 'linked').catch((e: unknown) => e))).toBe('conflict');
    expect(fs.readlinkSync(path.join(store.managedRoot, 'linked'))).toBe(other);
  });

  it('two concurrent installs of one slug are serialised into v1 and v2', async () => {
    const store = makeStore();
    const [a, b] = await Promise.all([
      installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: true }),
      installVersion(store, { slug: 'demo', stagedDir: await stage(store, V2), force: true }),
    ]);
    expect([a.version, b.version]).toEqual(['v1', 'v2']);
    expect(b.previous).toBe('v1');
    expect(await activeVersion(store, 'demo')).toBe('v2');
    expect((await listVersions(store, 'demo')).map((v) => v.version)).toEqual(['v1', 'v2']);
  });
});

describe('failure mid-install', () => {
  it('a failing lock write restores the previous link and manifest and removes the new folder', async () => {
    const store = makeStore();
    const v1 = await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false });
    const manifestBefore = fs.readFileSync(path.join(store.storeDir, 'demo', 'versions.json'), 'utf8');
    fs.rmSync(path.join(store.managedRoot, '.clawhub'), { recursive: true });
    fs.writeFileSync(path.join(store.managedRoot, '.clawhub'), 'not a folder');
    const err = await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V2), force: true }).catch((e: unknown) => e);
    expect(isAppError(err)).toBe(true);
    expect(linkTarget(store, 'demo')).toBe(v1.dir);
    expect(fs.readdirSync(path.join(store.storeDir, 'demo')).sort()).toEqual(['v1', 'versions.json']);
    expect(fs.readFileSync(path.join(store.storeDir, 'demo', 'versions.json'), 'utf8')).toBe(manifestBefore);
    expect(fs.readdirSync(store.managedRoot).sort()).toEqual(['.clawhub', 'demo']);
  });

  it('a failing first install leaves no link, no store folder', async () => {
    const store = makeStore();
    fs.mkdirSync(store.managedRoot, { recursive: true });
    fs.writeFileSync(path.join(store.managedRoot, '.clawhub'), 'not a folder');
    const err = await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false }).catch((e: unknown) => e);
    expect(isAppError(err)).toBe(true);
    expect(fs.readdirSync(store.managedRoot)).toEqual(['.clawhub']);
    expect(fs.readdirSync(store.storeDir)).toEqual([]);
  });
});

describe('activateVersion and removeSkill', () => {
  it('rolls back to v1 and forward to v2, rewriting the lock entry from the manifest', async () => {
    const store = makeStore();
    await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false, lock: { version: '1.0.0' } });
    store.clock.t += 1000;
    await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V2), force: true, lock: { version: '2.0.0' } });
    const back = await activateVersion(store, 'demo', 'v1');
    expect(back).toMatchObject({ version: 'v1', previous: 'v2' });
    expect(linkTarget(store, 'demo')).toBe(path.join(store.storeDir, 'demo', 'v1'));
    expect(fs.readFileSync(path.join(store.managedRoot, 'demo', 'SKILL.md'), 'utf8')).toBe(V1['SKILL.md']);
    expect(lockOf(store)).toEqual({ version: 1, skills: { demo: { version: '1.0.0', installedAt: 1_700_000_000_000 } } });
    await activateVersion(store, 'demo', 'v2');
    expect((lockOf(store).skills as Record<string, { version: string }>).demo.version).toBe('2.0.0');
    expect(codeOf(await activateVersion(store, 'demo', 'v7').catch((e: unknown) => e))).toBe('not_found');
    expect(codeOf(await activateVersion(store, 'demo', '../v1').catch((e: unknown) => e))).toBe('validation');
  });

  it('removes the link, then the versions, then the lock entry; other skills stay', async () => {
    const store = makeStore();
    await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false });
    await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V2), force: true });
    await installVersion(store, { slug: 'other', stagedDir: await stage(store, V1), force: false });
    expect(await removeSkill(store, 'demo')).toEqual({ removedVersions: ['v1', 'v2'] });
    expect(fs.readdirSync(store.managedRoot).sort()).toEqual(['.clawhub', 'other']);
    expect(fs.readdirSync(store.storeDir)).toEqual(['other']);
    expect(Object.keys(lockOf(store).skills as object)).toEqual(['other']);
    expect(codeOf(await removeSkill(store, 'demo').catch((e: unknown) => e))).toBe('not_found');
    // a fresh install after removal starts over
    expect((await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false })).version).toBe('v1');
  });
});
