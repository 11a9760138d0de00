// Streaming downloads against the loopback GitHub: the size cap before any byte, a stalled transfer
// abandoned (and tried once more), the bytes and the digest of a good one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeGithub, sha256 } from '@/test/helpers/github-server';
import { GithubClient } from '../client/client';
import { latestRelease } from '../client/releases';
import { downloadAsset } from './download';

let gh: FakeGithub;
let dir: string;
const DATA = Buffer.alloc(256 * 1024, 7);
const LARGE = Buffer.alloc(3 * 1024 * 1024 + 17, 9);

beforeAll(async () => {
  gh = await new FakeGithub().start();
  gh.releases.set('acme/ok', [{ tag: 'v1', assets: [{ name: 'ok-linux-amd64', data: DATA }] }]);
  gh.releases.set('acme/large', [{ tag: 'v1', assets: [{ name: 'large-linux-amd64', data: LARGE }] }]);
  gh.releases.set('acme/stall', [{ tag: 'v1', assets: [{ name: 'stall-linux-amd64', data: DATA, fault: 'stall' }] }]);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-dl-'));
});
afterAll(async () => {
  await gh?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const assetOf = async (repo: string) => (await latestRelease(new GithubClient({ apiBase: gh.base, userAgent: 't' }), repo)).release.assets[0];
const opts = () => ({ policy: { apiBase: new URL(gh.base) }, userAgent: 't', maxBytes: 1024 * 1024, stallMs: 300 });

describe('downloadAsset', () => {
  it('streams the bytes to a new file and hashes them on the way', async () => {
    const got = await downloadAsset(await assetOf('acme/ok'), path.join(dir, 'ok'), opts());
    expect(got).toMatchObject({ size: DATA.length, hashes: { sha256: sha256(DATA) } });
    expect(fs.readFileSync(path.join(dir, 'ok')).equals(DATA)).toBe(true);
  });

  it('writes the file off the event loop (no synchronous write), the same bytes as the tee gets', async () => {
    const spy = vi.spyOn(fs, 'writeSync');
    const teed: Buffer[] = [];
    const tee = new PassThrough();
    tee.on('data', (b: Buffer) => teed.push(b));
    try {
      const got = await downloadAsset(await assetOf('acme/large'), path.join(dir, 'large'), { ...opts(), maxBytes: 8 * 1024 * 1024, tee });
      expect(got).toMatchObject({ size: LARGE.length, teed: true, hashes: { sha256: sha256(LARGE) } });
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    expect(fs.readFileSync(path.join(dir, 'large')).equals(LARGE)).toBe(true);
    expect(Buffer.concat(teed).equals(LARGE)).toBe(true);
  });

  it('refuses an asset over the cap before downloading anything', async () => {
    const before = gh.requests.length;
    await expect(downloadAsset(await assetOf('acme/ok'), path.join(dir, 'big'), { ...opts(), maxBytes: 1000 })).rejects.toMatchObject({
      code: 'asset_too_large',
      status: 413,
    });
    expect(gh.requests.length).toBe(before + 1); // only the release look-up
  });

  it('abandons a transfer that stalls, tries once more, then fails as download_failed', async () => {
    const asset = await assetOf('acme/stall');
    const before = gh.requests.filter((r) => r.path.includes('/releases/download/')).length;
    await expect(downloadAsset(asset, path.join(dir, 'stall'), opts())).rejects.toMatchObject({
      code: 'download_failed',
      message: expect.stringContaining('stalled'),
    });
    expect(gh.requests.filter((r) => r.path.includes('/releases/download/')).length - before).toBe(2);
  });
});
