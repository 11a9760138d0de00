import type { GithubClient } from '../client/client';
import { type GithubRelease, latestRelease, listReleases } from '../client/releases';
import { type Channel, pickLatest } from './versions';

/**
 * The newest release of `repo` on a package's channel: on `stable`, GitHub's own `/releases/latest`
 * (one request, with its ETag); on `prerelease`, the highest of the last 100 releases by
 * `pickLatest`'s ordering. Undefined when the pre-release channel has no eligible release.
 */
export async function newestRelease(client: GithubClient, repo: string, channel: Channel, signal?: AbortSignal): Promise<GithubRelease | undefined> {
  if (channel !== 'prerelease') return (await latestRelease(client, repo, signal)).release;
  const { releases } = await listReleases(client, repo, { limit: 100, signal });
  return pickLatest(
    releases.map((r) => ({ ...r, tag: r.tag_name, publishedAt: r.published_at ?? r.created_at })),
    { channel: 'prerelease' },
  );
}
