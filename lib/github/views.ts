import type { AppDb } from '@/db/client';
import { githubPackages } from '@/db/schema';
import { AppError } from '@/lib/core/errors';
import { rankAssets } from './assets/picker';
import { hostTarget } from './assets/target';
import { listReleases, parseRepo } from './client/releases';
import { readRateLimits } from './client/store';
import { assertOwnerAllowed, type GithubContext, githubClient } from './install/installer';
import type { RetainedVersion } from './types';

/** Installed GitHub packages with what the page shows: binaries with libc, verification, kept versions, problems. */
export async function listGithubPackages(db: AppDb) {
  const rows = await db.select().from(githubPackages);
  return rows
    .map((r) => ({
      name: r.name,
      repo: r.repo,
      tag: r.tag,
      version: r.version,
      channel: r.channel,
      prerelease: r.prerelease,
      publishedAt: r.publishedAt?.toISOString() ?? null,
      assetName: r.assetName,
      assetSize: r.assetSize,
      sha256: r.sha256,
      checksumSource: r.checksumSource,
      binaries: r.binaries as { name: string; libc: string; interp: string | null; machine: string; size: number; source: string }[],
      retained: r.retained as RetainedVersion[],
      overrides: r.overrides as Record<string, unknown>,
      smokeOutput: r.smokeOutput,
      installedAt: r.installedAt.toISOString(),
      installedBy: r.installedBy,
      problem: r.problem,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The page's GitHub summary: installed packages, this host's target, and the last rate-limit state seen. */
export async function githubOverview(ctx: Pick<GithubContext, 'db' | 'settings' | 'userAgent'>) {
  const client = githubClient(ctx);
  return {
    packages: await listGithubPackages(ctx.db),
    target: await hostTarget(),
    apiBase: client.apiBase.href,
    tokenConfigured: !!ctx.settings.token,
    rateLimits: await readRateLimits(ctx.db, client.tokenId),
  };
}

/**
 * Releases of a repository with the asset decision for this host: the chosen asset with its
 * score and reasons, and every rejected asset with why. A repository outside the allowlist answers
 * 404 like a missing one, so the list cannot be probed.
 */
export async function browseReleases(
  ctx: Pick<GithubContext, 'db' | 'settings' | 'userAgent' | 'signal'>,
  q: { repo: string; limit: number; assetPattern?: string; binaryName?: string },
) {
  try {
    assertOwnerAllowed(ctx.settings, q.repo);
  } catch {
    throw new AppError('release_not_found', `${q.repo} was not found.`);
  }
  const client = githubClient(ctx);
  const target = await hostTarget();
  const { releases, notModified } = await listReleases(client, q.repo, { limit: q.limit, maxPages: 1, signal: ctx.signal });
  const toolName = q.binaryName ?? parseRepo(q.repo).repo;
  return {
    repo: q.repo,
    target,
    notModified,
    releases: releases.map((r) => {
      const { ranked, rejected } = rankAssets(r.assets, target, {
        toolName,
        version: r.tag_name,
        maxSizeBytes: ctx.settings.maxAssetMb * 1024 * 1024,
        assetPattern: q.assetPattern,
      });
      return {
        tag: r.tag_name,
        name: r.name,
        publishedAt: r.published_at,
        prerelease: r.prerelease,
        totalAssets: r.assets.length,
        matchingAssets: ranked.length,
        chosen: ranked[0]
          ? {
              name: ranked[0].asset.name,
              size: ranked[0].asset.size,
              score: ranked[0].score,
              reasons: ranked[0].reasons,
              libc: ranked[0].libc ?? null,
              digest: ranked[0].asset.digest ?? null,
            }
          : null,
        ranked: ranked.map((s) => ({ name: s.asset.name, score: s.score, reasons: s.reasons })),
        rejected,
      };
    }),
    rateLimits: await readRateLimits(ctx.db, client.tokenId),
  };
}
