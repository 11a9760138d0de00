import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { githubDigests, githubPackages } from '@/db/schema';
import { AppError } from '@/lib/core/errors';
import type { GithubSettings } from '../../settings/github-settings';
import { type HostTarget, hostTarget } from '../assets/target';
import { GithubClient } from '../client/client';
import { type GithubRelease, latestRelease, parseRepo, releaseByTag } from '../client/releases';
import { dbEtagStore, dbRateLimitSink } from '../client/store';
import type { GithubOverrides, InstallManifest, RetainedVersion } from '../types';
import { activateVersion, binaryConflicts, commitVersion, readManifest, retain, retainedOf, smokeTest, writeRecord } from './activate';
import { binOwner, currentVersion, ensureGithubLayout, type GithubLayout, githubLayout, PACKAGE_NAME, packageDir, scratchDir, versionDirName } from './layout';
import { type GithubLocks, withNameLocks } from './locks';
import { type Staged, stageRelease } from './stage';

export interface GithubContext {
  db: AppDb;
  runtimeDir: string;
  settings: GithubSettings & { token: string | null };
  userAgent: string;
  actor: string;
  jobId?: string | null;
  target?: HostTarget;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  log?: (line: string) => void;
  progress?: (percent: number, stage: string) => void;
  /** Locks the installed name and bin/ names while they change (jobs pass the database). */
  locks?: GithubLocks;
  /** Called between the steps of an install; crash tests pause here and kill the process. */
  onStep?: (step: InstallStep) => Promise<void>;
}

export type InstallStep = 'staged' | 'committed' | 'smoke-tested' | 'current-switched' | 'recorded';

export function githubClient(ctx: Pick<GithubContext, 'db' | 'settings' | 'userAgent' | 'fetch'>): GithubClient {
  return new GithubClient({
    apiBase: ctx.settings.apiBaseUrl,
    token: ctx.settings.token,
    userAgent: ctx.userAgent,
    extraHosts: ctx.settings.downloadHosts,
    etags: dbEtagStore(ctx.db),
    rateLimits: dbRateLimitSink(ctx.db),
    fetch: ctx.fetch,
  });
}

/** The owner allowlist; an empty list allows every owner. */
export function assertOwnerAllowed(settings: Pick<GithubSettings, 'allowedOwners'>, repo: string): void {
  const { owner } = parseRepo(repo);
  if (settings.allowedOwners.length && !settings.allowedOwners.some((o) => o.toLowerCase() === owner.toLowerCase())) {
    throw new AppError('not_allowed', `${owner} is not in the allowed GitHub owners.`, { hint: 'An admin can add the owner in Settings → GitHub.' });
  }
}

/** Refuses an asset whose digest for the same tag differs from the one seen before; records it the first time. */
async function checkDigest(db: AppDb, repo: string, tag: string, assetName: string, sha256: string): Promise<void> {
  const key = and(eq(githubDigests.repo, repo.toLowerCase()), eq(githubDigests.tag, tag), eq(githubDigests.assetName, assetName));
  const [seen] = await db.select().from(githubDigests).where(key);
  if (seen && seen.sha256 !== sha256) {
    throw new AppError(
      'digest_changed',
      `${assetName} of ${repo} ${tag} changed since ${seen.firstSeenAt.toISOString()}: sha256 was ${seen.sha256}, now ${sha256}.`,
      {
        hint: 'A release asset was replaced after publication. Check with the publisher before trusting it.',
      },
    );
  }
  if (!seen) await db.insert(githubDigests).values({ repo: repo.toLowerCase(), tag, assetName, sha256, firstSeenAt: new Date() });
}

export type GithubPackageRow = typeof githubPackages.$inferSelect;

export async function getGithubPackage(db: AppDb, name: string): Promise<GithubPackageRow | null> {
  const [row] = await db.select().from(githubPackages).where(eq(githubPackages.name, name));
  return row ?? null;
}

export interface InstallRequest {
  repo: string;
  tag?: string;
  overrides?: GithubOverrides;
  /** Take over bin/ names owned by another package or an unmanaged file. */
  takeover?: boolean;
}

/** Installs (or updates to) a release: every step, with `current` untouched until the smoke test passed. */
export async function installGithubPackage(ctx: GithubContext, req: InstallRequest): Promise<InstallManifest & { retained: RetainedVersion[] }> {
  const log = ctx.log ?? (() => undefined);
  const progress = ctx.progress ?? (() => undefined);
  assertOwnerAllowed(ctx.settings, req.repo);
  const l = githubLayout(ctx.runtimeDir);
  ensureGithubLayout(l);
  const target = ctx.target ?? (await hostTarget());
  const client = githubClient(ctx);
  progress(5, 'resolving the release');
  const { release } = req.tag ? await releaseByTag(client, req.repo, req.tag, ctx.signal) : await latestRelease(client, req.repo, ctx.signal);
  log(
    `Release ${release.tag_name}${release.prerelease ? ' (pre-release)' : ''}, published ${release.published_at ?? 'unknown'}, ${release.assets.length} assets.`,
  );
  const scratch = scratchDir(l);
  try {
    const staged = await stageRelease(scratch, {
      repo: req.repo,
      release,
      target,
      overrides: req.overrides ?? {},
      maxAssetBytes: ctx.settings.maxAssetMb * 1024 * 1024,
      requireChecksum: ctx.settings.requireChecksum,
      download: {
        policy: { apiBase: client.apiBase, extraHosts: ctx.settings.downloadHosts },
        token: ctx.settings.token,
        userAgent: ctx.userAgent,
        signal: ctx.signal,
        fetch: ctx.fetch,
      },
      log,
      progress,
      signal: ctx.signal,
    });
    await checkDigest(ctx.db, req.repo, release.tag_name, staged.pick.chosen.asset.name, staged.sha256);
    const step = ctx.onStep ?? (async () => undefined);
    await step('staged');
    const live = currentVersion(l, staged.name);
    const liveBins = (live && readManifest(path.join(packageDir(l, staged.name), live))?.binaries.map((b) => b.name)) || [];
    const bins = [...staged.binaries.map((b) => b.name), ...liveBins];
    return await withNameLocks(ctx.locks, staged.name, bins, () => switchTo(ctx, req, release, staged, step));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** From a staged release to the current version, under the locks of its name and bin/ names. */
async function switchTo(
  ctx: GithubContext,
  req: InstallRequest,
  release: GithubRelease,
  staged: Staged,
  step: (s: InstallStep) => Promise<void>,
): Promise<InstallManifest & { retained: RetainedVersion[] }> {
  const log = ctx.log ?? (() => undefined);
  const progress = ctx.progress ?? (() => undefined);
  const l = githubLayout(ctx.runtimeDir);
  const existing = await getGithubPackage(ctx.db, staged.name);
  if (existing && existing.repo.toLowerCase() !== req.repo.toLowerCase()) {
    throw new AppError('conflict', `The package name ${staged.name} is taken by ${existing.repo}.`, {
      hint: 'Set a different binary name for this package.',
    });
  }
  const conflicts = binaryConflicts(
    l,
    staged.name,
    staged.binaries.map((b) => b.name),
  );
  if (conflicts.length && !req.takeover) {
    throw new AppError('binary_conflict', `bin/ names already in use: ${conflicts.map((c) => `${c.binary} (${c.owner})`).join(', ')}.`, {
      details: { conflicts },
      hint: 'Confirm the takeover to replace them.',
    });
  }
  const manifest: InstallManifest = {
    name: staged.name,
    repo: req.repo,
    tag: release.tag_name,
    version: versionDirName(release.tag_name),
    channel: (existing?.channel as InstallManifest['channel'] | undefined) ?? (release.prerelease ? 'prerelease' : 'stable'),
    releaseId: release.id,
    publishedAt: release.published_at,
    prerelease: release.prerelease,
    assetId: staged.pick.chosen.asset.id ?? null,
    assetName: staged.pick.chosen.asset.name,
    assetUrl: staged.pick.chosen.asset.browser_download_url,
    assetSize: staged.pick.chosen.asset.size,
    sha256: staged.sha256,
    checksumSource: staged.checksumSource,
    binaries: staged.binaries,
    overrides: req.overrides ?? {},
    smokeOutput: null,
    installedAt: new Date().toISOString(),
    installedBy: ctx.actor,
  };
  progress(75, 'smoke test');
  const { dir, created } = commitVersion(l, staged.dir, manifest);
  await step('committed');
  const overrides = req.overrides ?? {};
  if (overrides.smokeTest !== false) {
    try {
      manifest.smokeOutput = await smokeTest(
        path.join(dir, staged.binaries[0].name),
        overrides.smokeArgs ?? ['--version'],
        ctx.settings.smokeTimeoutSeconds * 1000,
        ctx.signal,
      );
      log(`Smoke test passed: ${manifest.smokeOutput}`);
    } catch (e) {
      if (created) fs.rmSync(dir, { recursive: true, force: true });
      throw e;
    }
  } else log('Smoke test turned off for this package: not run-tested.');
  await step('smoke-tested');
  const previous = currentVersion(l, staged.name);
  const previousManifest = previous ? readManifest(path.join(packageDir(l, staged.name), previous)) : null;
  progress(90, 'switching');
  activateVersion(
    l,
    staged.name,
    manifest.version,
    manifest.binaries.map((b) => b.name),
    previousManifest?.binaries.map((b) => b.name) ?? [],
  );
  await step('current-switched');
  const retained = retain(
    l,
    staged.name,
    manifest.version,
    previousManifest ? retainedOf(previousManifest) : null,
    (existing?.retained as RetainedVersion[]) ?? [],
    ctx.settings.retainedVersions,
  );
  await writeRecord(ctx.db, manifest, retained);
  await step('recorded');
  log(
    `${staged.name} ${previousManifest ? `${previousManifest.tag} → ` : ''}${manifest.tag} is current; bin/: ${manifest.binaries.map((b) => b.name).join(', ')}.`,
  );
  progress(100, 'done');
  return { ...manifest, retained };
}

/** The bin/ names of these versions of a package, for its locks; nothing when a name or version is not one. */
function binsOf(l: GithubLayout, name: string, versions: (string | null)[]): string[] {
  if (!PACKAGE_NAME.test(name)) return [];
  return versions.flatMap((v) => (v && versionDirName(v) === v && readManifest(path.join(packageDir(l, name), v))?.binaries.map((b) => b.name)) || []);
}

/** Switches back to a retained version after its smoke test. */
export function rollbackGithubPackage(ctx: GithubContext, name: string, version: string): Promise<InstallManifest & { retained: RetainedVersion[] }> {
  const l = githubLayout(ctx.runtimeDir);
  return withNameLocks(ctx.locks, name, binsOf(l, name, [version, currentVersion(l, name)]), () => rollback(ctx, name, version));
}

async function rollback(ctx: GithubContext, name: string, version: string): Promise<InstallManifest & { retained: RetainedVersion[] }> {
  const row = await getGithubPackage(ctx.db, name);
  if (!row) throw new AppError('release_not_found', `${name} is not installed.`);
  const retainedList = row.retained as RetainedVersion[];
  if (!retainedList.some((r) => r.version === version))
    throw new AppError('conflict', `${name} keeps no version ${version}; kept: ${retainedList.map((r) => r.tag).join(', ') || 'none'}.`);
  const l = githubLayout(ctx.runtimeDir);
  const dir = path.join(packageDir(l, name), version);
  const m = readManifest(dir);
  if (!m) throw new AppError('conflict', `The folder of ${name} ${version} is missing or incomplete; reinstall that tag instead.`);
  if (m.overrides.smokeTest !== false)
    m.smokeOutput = await smokeTest(
      path.join(dir, m.binaries[0].name),
      m.overrides.smokeArgs ?? ['--version'],
      ctx.settings.smokeTimeoutSeconds * 1000,
      ctx.signal,
    );
  const currentManifest = readManifest(path.join(packageDir(l, name), row.version));
  activateVersion(
    l,
    name,
    version,
    m.binaries.map((b) => b.name),
    currentManifest?.binaries.map((b) => b.name) ?? [],
  );
  const retained = [...(currentManifest ? [retainedOf(currentManifest)] : []), ...retainedList.filter((r) => r.version !== version)].slice(
    0,
    Math.max(ctx.settings.retainedVersions, 1),
  );
  await writeRecord(ctx.db, m, retained);
  ctx.log?.(`${name} rolled back from ${row.tag} to ${m.tag}.`);
  return { ...m, retained };
}

type UninstallContext = Pick<GithubContext, 'db' | 'runtimeDir' | 'log' | 'locks'>;

const ownedBins = (l: GithubLayout, name: string) => (fs.existsSync(l.bin) ? fs.readdirSync(l.bin) : []).filter((b) => binOwner(l, b) === name);

/** Removes a package: its bin/ links, its folder, its record. */
export function uninstallGithubPackage(ctx: UninstallContext, name: string): Promise<{ name: string; tag: string }> {
  const l = githubLayout(ctx.runtimeDir);
  return withNameLocks(ctx.locks, name, ownedBins(l, name), () => uninstall(ctx, name));
}

async function uninstall(ctx: UninstallContext, name: string): Promise<{ name: string; tag: string }> {
  const row = await getGithubPackage(ctx.db, name);
  if (!row) throw new AppError('release_not_found', `${name} is not installed from GitHub.`);
  const l = githubLayout(ctx.runtimeDir);
  // Every bin/ link into this package goes, including those of older versions; nothing else is touched.
  for (const b of ownedBins(l, name)) fs.rmSync(path.join(l.bin, b), { force: true });
  fs.rmSync(packageDir(l, name), { recursive: true, force: true });
  await ctx.db.delete(githubPackages).where(eq(githubPackages.name, name));
  ctx.log?.(`${name} ${row.tag} removed.`);
  return { name, tag: row.tag };
}
