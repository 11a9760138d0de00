/** Boot recovery after simulated crashes at each step of an install or removal. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recoverStore, sweepStaging } from './recover';
import { cleanupStores, linkTarget, lockOf, makeStore, readJson, stage, V1, V2 } from './store.fixtures';
import { activeVersion, removeSkill } from './store-state';
import { installVersion } from './versions';

afterAll(cleanupStores);

describe('recoverStore', () => {
  it('removes temp folders, temp links and temp files of a crash, and nothing else', async () => {
    const store = makeStore();
    await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false });
    const leftovers = [
      path.join(store.storeDir, '.tmp-stage-abc123'),
      path.join(store.managedRoot, '.tmp-link-demo-0a1b2c'),
      path.join(store.managedRoot, '.clawhub', '.tmp-lock.json-0a1b2c'),
      path.join(store.storeDir, 'demo', '.tmp-versions.json-ffeedd'),
    ];
    fs.mkdirSync(leftovers[0]);
    fs.writeFileSync(path.join(leftovers[0], 'SKILL.md'), 'half-extracted');
    fs.symlinkSync(path.join(store.storeDir, 'demo', 'v1'), leftovers[1]);
    fs.writeFileSync(leftovers[2], '{"version":1,');
    fs.writeFileSync(leftovers[3], '{');
    const lockBefore = lockOf(store);
    const report = await recoverStore(store);
    expect(report.removedTemp.sort()).toEqual([...leftovers].sort());
    expect(report).toMatchObject({ removedOrphans: [], droppedRecords: [], repointed: [], removedSkills: [], lockSynced: [] });
    for (const p of leftovers) expect(fs.existsSync(p)).toBe(false);
    expect(await activeVersion(store, 'demo')).toBe('v1');
    expect(lockOf(store)).toEqual(lockBefore);
    expect(await recoverStore(store)).toEqual({ removedTemp: [], removedOrphans: [], droppedRecords: [], repointed: [], removedSkills: [], lockSynced: [] });
  });

  it('crash after the move, before the manifest: the unrecorded version folder is removed', async () => {
    const store = makeStore();
    await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false });
    fs.renameSync(await stage(store, V2), path.join(store.storeDir, 'demo', 'v2'));
    const report = await recoverStore(store);
    expect(report.removedOrphans).toEqual(['demo/v2']);
    expect(fs.readdirSync(path.join(store.storeDir, 'demo')).sort()).toEqual(['v1', 'versions.json']);
  });

  it('crash after the link swap, before the lock write: the lock entry follows the active version', async () => {
    const store = makeStore();
    await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false, lock: { version: '1.0.0' } });
    store.clock.t += 5;
    await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V2), force: true, lock: { version: '2.0.0' } });
    const lockFile = path.join(store.managedRoot, '.clawhub', 'lock.json');
    fs.writeFileSync(lockFile, JSON.stringify({ version: 1, skills: { demo: { version: '1.0.0', installedAt: 1_700_000_000_000, pinned: true } } }));
    const report = await recoverStore(store);
    expect(report.lockSynced).toEqual(['demo']);
    expect(lockOf(store)).toEqual({ version: 1, skills: { demo: { version: '2.0.0', installedAt: 1_700_000_000_005, pinned: true } } });
  });

  it('a dangling link is pointed at the newest stored version; its record is dropped', async () => {
    const store = makeStore();
    await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false });
    await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V2), force: true });
    fs.rmSync(path.join(store.storeDir, 'demo', 'v2'), { recursive: true });
    const report = await recoverStore(store);
    expect(report.repointed).toEqual([{ slug: 'demo', version: 'v1' }]);
    expect(report.droppedRecords).toEqual(['demo/v2']);
    expect(linkTarget(store, 'demo')).toBe(path.join(store.storeDir, 'demo', 'v1'));
    expect((readJson(path.join(store.storeDir, 'demo', 'versions.json')).versions as { version: string }[]).map((v) => v.version)).toEqual(['v1']);
    expect((lockOf(store).skills as Record<string, { version: string }>).demo.version).toBe('v1');
  });

  it('stored versions without a link (interrupted first install or removal) are removed with their lock entry', async () => {
    const store = makeStore();
    await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false });
    await installVersion(store, { slug: 'keep', stagedDir: await stage(store, V1), force: false });
    fs.unlinkSync(path.join(store.managedRoot, 'demo')); // removeSkill's first step, then a crash
    const report = await recoverStore(store);
    expect(report.removedSkills).toEqual(['demo']);
    expect(fs.readdirSync(store.storeDir)).toEqual(['keep']);
    expect(Object.keys(lockOf(store).skills as object)).toEqual(['keep']);
    await removeSkill(store, 'keep');
  });

  it('leaves real folders, foreign links and everything when the managed root is missing', async () => {
    const store = makeStore();
    await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false });
    await installVersion(store, { slug: 'mine', stagedDir: await stage(store, V1), force: false });
    fs.unlinkSync(path.join(store.managedRoot, 'demo'));
    fs.mkdirSync(path.join(store.managedRoot, 'demo'));
    fs.unlinkSync(path.join(store.managedRoot, 'mine'));
    fs.symlinkSync('/usr/share', path.join(store.managedRoot, 'mine'));
    const report = await recoverStore(store);
    expect(report.removedSkills).toEqual([]);
    expect(fs.readdirSync(store.storeDir).sort()).toEqual(['demo', 'mine']);
    expect(fs.readlinkSync(path.join(store.managedRoot, 'mine'))).toBe('/usr/share');

    const moved = { ...store, managedRoot: path.join(store.root, 'not-mounted') };
    expect((await recoverStore(moved)).removedSkills).toEqual([]);
    expect(fs.readdirSync(store.storeDir).sort()).toEqual(['demo', 'mine']);
  });
});

describe('sweepStaging', () => {
  it('empties the import staging folder a crash left behind, and tolerates a missing one', async () => {
    const store = makeStore();
    const staging = path.join(store.root, 'staging');
    const stale = path.join(staging, '.tmp-import-dead01');
    fs.mkdirSync(path.join(stale, 'extract', 'skill'), { recursive: true });
    fs.writeFileSync(path.join(stale, 'extract', 'skill', 'SKILL.md'), 'half-extracted');
    fs.writeFileSync(path.join(staging, 'archive.zip'), 'partial');
    expect((await sweepStaging(staging)).sort()).toEqual([path.join(staging, '.tmp-import-dead01'), path.join(staging, 'archive.zip')]);
    expect(fs.readdirSync(staging)).toEqual([]);
    expect(await sweepStaging(path.join(store.root, 'missing'))).toEqual([]);
  });
});
