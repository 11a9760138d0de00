// The newest release of a channel, against the loopback GitHub.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGithub } from '@/test/helpers/github-server';
import { GithubClient } from '../client/client';
import { newestRelease } from './newest';

let gh: FakeGithub;
const client = () => new GithubClient({ apiBase: gh.base, userAgent: 't' });

beforeAll(async () => {
  gh = await new FakeGithub().start();
  // newest first, as GitHub lists them
  gh.releases.set('acme/tool', [
    { tag: 'v2.1.0-rc.1', prerelease: true, publishedAt: '2026-03-01T00:00:00Z', assets: [] },
    { tag: 'v2.0.0', publishedAt: '2026-02-01T00:00:00Z', assets: [] },
    { tag: 'v1.9.0', publishedAt: '2026-01-01T00:00:00Z', assets: [] },
  ]);
  gh.releases.set('acme/stable-only', [{ tag: 'v1.0.0', publishedAt: '2026-01-01T00:00:00Z', assets: [] }]);
});
afterAll(async () => {
  await gh?.stop();
});

describe('newestRelease', () => {
  it('takes /releases/latest on the stable channel', async () => {
    expect((await newestRelease(client(), 'acme/tool', 'stable'))?.tag_name).toBe('v2.0.0');
    expect(gh.requests.some((r) => r.path === '/repos/acme/tool/releases/latest')).toBe(true);
  });

  it('takes the highest release, pre-releases included, on the pre-release channel', async () => {
    expect((await newestRelease(client(), 'acme/tool', 'prerelease'))?.tag_name).toBe('v2.1.0-rc.1');
    expect((await newestRelease(client(), 'acme/stable-only', 'prerelease'))?.tag_name).toBe('v1.0.0');
  });
});
