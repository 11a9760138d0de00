import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import * as tar from 'tar';
import { afterEach, describe, expect, it } from 'vitest';
import { contentHash, listSkillFiles } from '../files';
import { dropVersions, placeVersion } from './cache-ops';
import { readManifest } from './manifest';
import { cleanupStores, makeStore, stage, V1, V2 } from './store.fixtures';
import { activeVersion, listVersions } from './store-state';
import { packVersion, unpackVersion } from './version-pack';
import { activateVersion, createStagingDir, installVersion } from './versions';

afterEach(cleanupStores);

async function bytesOf(it: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of it) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

describe('packVersion / unpackVersion', () => {
  it('packs a folder to the same bytes every time and unpacks it to the same files and modes', async () => {
    const store = makeStore();
    const v = await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V2), force: false });
    fs.chmodSync(path.join(v.dir, 'scripts', 'run.sh'), 0o755);
    const one = await bytesOf(await packVersion(v.dir));
    // other times on the files do not change the bytes
    fs.utimesSync(path.join(v.dir, 'added.md'), new Date(5_000_000), new Date(5_000_000));
    const two = await bytesOf(await packVersion(v.dir));
    expect(two.equals(one)).toBe(true);
    const dest = await createStagingDir(store);
    await unpackVersion(Readable.from([one]), dest);
    const files = await listSkillFiles(dest);
    expect(contentHash(files)).toBe(v.contentHash);
    expect(files.find((f) => f.path === 'scripts/run.sh')?.mode).toBe(0o755);
    expect(fs.readFileSync(path.join(dest, 'logo.png')).equals(V2['logo.png'])).toBe(true);
  });

  it('refuses a symbolic link in a stored version, both ways', async () => {
    const store = makeStore();
    const src = await stage(store, { 'SKILL.md': 'x' });
    fs.symlinkSync('/etc/passwd', path.join(src, 'link'));
    await expect(packVersion(src)).rejects.toMatchObject({ code: 'conflict' });
    const evil = await bytesOf(tar.create({ cwd: src, portable: true }, ['SKILL.md', 'link']) as unknown as AsyncIterable<Uint8Array>);
    const dest = await createStagingDir(store);
    await expect(unpackVersion(Readable.from([evil]), dest)).rejects.toMatchObject({ code: 'conflict' });
    expect(fs.existsSync(path.join(dest, 'link'))).toBe(false);
  });

  it('fails when the source stream fails', async () => {
    const store = makeStore();
    const dest = await createStagingDir(store);
    const broken = new Readable({
      read() {
        this.destroy(new Error('storage went away'));
      },
    });
    await expect(unpackVersion(broken, dest)).rejects.toThrow('storage went away');
  });
});

describe('placeVersion / dropVersions', () => {
  it('places a version under its recorded number without activating it, and drops versions other than the active one', async () => {
    const store = makeStore();
    const v1 = await installVersion(store, { slug: 'demo', stagedDir: await stage(store, V1), force: false });
    const packed = await bytesOf(await packVersion(v1.dir));
    const record = (await readManifest(store.storeDir, 'demo')).versions[0];
    // another store receives v3 of the same slug (v2 never reached it)
    const other = makeStore();
    await installVersion(other, { slug: 'demo', stagedDir: await stage(other, V2), force: false });
    const staged = await createStagingDir(other);
    await unpackVersion(Readable.from([packed]), staged);
    await placeVersion(other, 'demo', { ...record, version: 'v3' }, staged);
    expect(await activeVersion(other, 'demo')).toBe('v1');
    expect((await listVersions(other, 'demo')).map((v) => [v.version, v.present])).toEqual([
      ['v1', true],
      ['v3', true],
    ]);
    await expect(placeVersion(other, 'demo', { ...record, version: 'v3' }, await createStagingDir(other))).rejects.toMatchObject({ code: 'conflict' });
    await activateVersion(other, 'demo', 'v3');
    expect(await dropVersions(other, 'demo', ['v1', 'v3'])).toEqual(['v1']);
    expect((await listVersions(other, 'demo')).map((v) => v.version)).toEqual(['v3']);
    expect(fs.existsSync(path.join(other.storeDir, 'demo', 'v1'))).toBe(false);
  });
});
