import type { AppDb } from '@/db/client';
import { githubPackages } from '@/db/schema';
import { AppError } from '@/lib/core/errors';
import type { OutdatedPackage } from '../../runtime/types';
import { rankAssets } from '../assets/picker';
import { hostTarget } from '../assets/target';
import { type GithubContext, githubClient } from '../install/installer';
import type { GithubOverrides } from '../types';
import { newestRelease } from './newest';
import { isNewer } from './versions';

/**
 * Update check of the GitHub source: each package against `/releases/latest` (with its
 * ETag, so an unchanged answer costs nothing) or, on the pre-release channel, the highest release.
 * Only releases with an asset for this host are offered; never a downgrade. A rate limit stops the
 * sweep and the remaining packages are reported as deferred (their known updates are kept).
 */
export async function githubOutdated(
  ctx: Pick<GithubContext, 'db' | 'settings' | 'userAgent' | 'signal' | 'fetch'>,
): Promise<{ outdated: OutdatedPackage[]; errors: { name: string; message: string }[] }> {
  const rows = await (ctx.db as AppDb).select().from(githubPackages);
  const client = githubClient(ctx);
  const target = await hostTarget();
  const outdated: OutdatedPackage[] = [];
  const errors: { name: string; message: string }[] = [];
  let stopped: string | null = null;
  // Serially, as GitHub asks, to stay clear of secondary rate limits.
  for (const row of rows) {
    if (stopped) {
      errors.push({ name: row.name, message: `deferred: ${stopped}` });
      continue;
    }
    try {
      const candidate = await newestRelease(client, row.repo, row.channel === 'prerelease' ? 'prerelease' : 'stable', ctx.signal);
      if (!candidate) continue;
      const installed = { tag: row.tag, publishedAt: row.publishedAt };
      const next = { tag: candidate.tag_name, publishedAt: candidate.published_at ?? candidate.created_at, prerelease: candidate.prerelease };
      if (!isNewer(installed, next)) continue;
      const o = row.overrides as GithubOverrides;
      const { ranked } = rankAssets(candidate.assets, target, {
        toolName: o.binaryName ?? row.repo.split('/')[1],
        version: candidate.tag_name,
        assetPattern: o.assetPattern,
        matching: o.matching,
        matchingRegex: o.matchingRegex,
        maxSizeBytes: ctx.settings.maxAssetMb * 1024 * 1024,
      });
      if (!ranked.length) {
        errors.push({ name: row.name, message: `${candidate.tag_name} has no asset for ${target.os}/${target.arch}/${target.libc}; not offered.` });
        continue;
      }
      outdated.push({ manager: 'github', name: row.name, current: row.tag, latest: candidate.tag_name, ...(candidate.prerelease ? { prerelease: true } : {}) });
    } catch (e) {
      errors.push({ name: row.name, message: (e as Error).message });
      if (e instanceof AppError && e.code === 'rate_limited') stopped = `GitHub rate limit (${e.message})`;
    }
  }
  return { outdated, errors };
}
