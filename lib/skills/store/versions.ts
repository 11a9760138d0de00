/**
 * Installing and activating versions:
 * the staged folder is renamed into storeDir/<slug>/vN (same filesystem), the manifest
 * records it, managedRoot/<slug> is swapped to it, then lock.json is written. A failure after
 * the rename restores the previous symlink and manifest and removes the new folder.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError, isAppError } from '@/lib/core/errors';
import { lstatOrNull, swapSymlink, TMP_PREFIX } from '../../core/atomic-fs';
import { contentHash, listSkillFiles, SkillFilesError } from '../files';
import type { SkillFile } from '../types';
import { CLAWHUB_DIR, type ClawhubLockEntry, compact, writeOrigin } from './clawhub-files';
import {
  findVersion,
  nextVersion,
  readManifest,
  slugStoreDir,
  type VersionLockInfo,
  type VersionRecord,
  type VersionsManifest,
  validateSlug,
  validateVersion,
  versionDir,
  writeManifest,
} from './manifest';
import { activeVersion, assertLinkIsOurs, linkPathOf, resolveStore, type SkillStore, withSlugLock, writeLockEntry } from './store-state';

export interface InstallVersionInput {
  slug: string;
  /** The skill folder to install (holds SKILL.md); moved by rename, so it must be on the storeDir filesystem. */
  stagedDir: string;
  /** Replace an installed skill; without it an existing slug fails with `exists`. */
  force: boolean;
  /** What lock.json / origin.json record. `version` defaults to the new vN; `registry` writes origin.json. */
  lock?: Partial<VersionLockInfo>;
}

export interface InstalledVersion {
  slug: string;
  version: string;
  /** Absolute path of the version folder. */
  dir: string;
  contentHash: string;
  files: SkillFile[];
  installedAt: number;
  /** The version that was active before, if any. */
  previous?: string;
  /** True when the content equals the active version: nothing new was stored. */
  unchanged: boolean;
  lockEntry?: ClawhubLockEntry;
}

/** Listing limits of a staged skill: the archive limits. */
const STAGED_LIMITS = { maxFiles: 50_000, maxFileBytes: 256 * 1024 * 1024 };

async function listStaged(staged: string): Promise<SkillFile[]> {
  const st = await lstatOrNull(staged);
  if (!st?.isDirectory()) throw new AppError('validation', `The staged skill folder ${staged} does not exist.`, { details: { stagedDir: staged } });
  let files: SkillFile[];
  try {
    files = await listSkillFiles(staged, STAGED_LIMITS);
  } catch (e) {
    if (!(e instanceof SkillFilesError)) throw e;
    const code = e.code === 'symlink' || e.code === 'special-file' ? 'unsafe_archive' : 'archive_too_large';
    throw new AppError(code, e.message, { details: { file: e.file }, cause: e });
  }
  if (!files.some((f) => f.path === 'SKILL.md')) throw new AppError('missing_skill_md', 'The staged skill folder has no SKILL.md at its root.');
  return files;
}

/** A private staging folder inside storeDir (same filesystem, so installVersion can rename it). */
export async function createStagingDir(store: SkillStore): Promise<string> {
  const storeDir = path.resolve(store.storeDir);
  await fsp.mkdir(storeDir, { recursive: true });
  return fsp.mkdtemp(path.join(storeDir, `${TMP_PREFIX}stage-`));
}

async function restoreManifest(storeDir: string, before: VersionsManifest): Promise<void> {
  if (before.versions.length > 0) await writeManifest(storeDir, before);
  else await fsp.rm(path.join(slugStoreDir(storeDir, before.slug), 'versions.json'), { force: true });
}

async function restoreLink(link: string, previousTarget: string | null): Promise<void> {
  if (previousTarget) await swapSymlink(link, previousTarget);
  else await fsp.rm(link, { force: true });
}

export async function installVersion(store: SkillStore, input: InstallVersionInput): Promise<InstalledVersion> {
  const slug = validateSlug(input.slug);
  const s = resolveStore(store);
  const now = store.now ?? Date.now;
  return withSlugLock(s, slug, async () => {
    const staged = path.resolve(input.stagedDir);
    const files = await listStaged(staged);
    const hash = contentHash(files);
    await assertLinkIsOurs(s, slug);
    const active = await activeVersion(s, slug);
    const manifest = await readManifest(s.storeDir, slug);
    const activeRecord = active ? findVersion(manifest, active) : undefined;
    if (active && activeRecord?.contentHash === hash) {
      await fsp.rm(staged, { recursive: true, force: true });
      const dir = versionDir(s.storeDir, slug, active);
      return { slug, version: active, dir, contentHash: hash, files, installedAt: activeRecord.installedAt, previous: active, unchanged: true };
    }
    if ((active || manifest.versions.length > 0) && !input.force) {
      throw new AppError(
        'exists',
        `Skill ${slug} is already installed${active ? ` (${active})` : ''}. Replace it with a new version (“Replace if installed”, or force: true in the API); earlier versions stay for rollback.`,
        { details: { slug, active } },
      );
    }

    const slugDir = slugStoreDir(s.storeDir, slug);
    await fsp.mkdir(slugDir, { recursive: true });
    const version = nextVersion(manifest, await fsp.readdir(slugDir));
    const installedAt = now();
    const lockInfo = compact({ ...input.lock, version: input.lock?.version ?? version }) as VersionLockInfo;
    // .clawhub is tool state, not content (files.ts ignores it): ours replaces whatever the source shipped
    await fsp.rm(path.join(staged, CLAWHUB_DIR), { recursive: true, force: true });
    if (lockInfo.registry) {
      await writeOrigin(staged, {
        version: 1,
        registry: lockInfo.registry,
        slug,
        ownerHandle: lockInfo.ownerHandle,
        installedVersion: lockInfo.version,
        installedAt,
        fingerprint: hash,
      });
    }
    const dir = versionDir(s.storeDir, slug, version);
    try {
      await fsp.rename(staged, dir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new AppError(
        'internal',
        code === 'EXDEV'
          ? `The staging folder ${staged} is on another filesystem than ${s.storeDir}.`
          : `Could not move the staged skill into the store: ${(e as Error).message}`,
        { cause: e },
      );
    }

    const record: VersionRecord = {
      version,
      contentHash: hash,
      installedAt,
      files: files.map((f) => ({ path: f.path, sha256: f.sha256, size: f.size })),
      lock: lockInfo,
    };
    const link = linkPathOf(s, slug);
    const previousTarget = active ? await fsp.readlink(link) : null;
    let linked = false;
    try {
      await writeManifest(s.storeDir, { ...manifest, versions: [...manifest.versions, record] });
      await fsp.mkdir(s.managedRoot, { recursive: true });
      await swapSymlink(link, dir);
      linked = true;
      const lockEntry = await writeLockEntry(s, slug, record);
      return { slug, version, dir, contentHash: hash, files, installedAt, ...(active ? { previous: active } : {}), unchanged: false, lockEntry };
    } catch (e) {
      if (linked) await restoreLink(link, previousTarget).catch(() => {});
      await restoreManifest(s.storeDir, manifest).catch(() => {});
      await fsp.rm(dir, { recursive: true, force: true });
      if (manifest.versions.length === 0) await fsp.rmdir(slugDir).catch(() => {});
      throw isAppError(e) ? e : new AppError('internal', `Installing ${slug} ${version} failed and was rolled back: ${(e as Error).message}`, { cause: e });
    }
  });
}

/** Make a stored version the active one (rollback or roll forward) and rewrite its lock entry. */
export async function activateVersion(
  store: SkillStore,
  slug: string,
  version: string,
): Promise<{ version: string; previous: string | null; lockEntry: ClawhubLockEntry }> {
  validateSlug(slug);
  validateVersion(version);
  const s = resolveStore(store);
  return withSlugLock(s, slug, async () => {
    await assertLinkIsOurs(s, slug);
    const record = findVersion(await readManifest(s.storeDir, slug), version);
    const dir = versionDir(s.storeDir, slug, version);
    if (!record || !(await lstatOrNull(dir))?.isDirectory()) {
      throw new AppError('not_found', `Version ${version} of ${slug} is not in the store.`, { details: { slug, version } });
    }
    const previous = await activeVersion(s, slug);
    const link = linkPathOf(s, slug);
    const previousTarget = previous ? await fsp.readlink(link) : null;
    await fsp.mkdir(s.managedRoot, { recursive: true });
    await swapSymlink(link, dir);
    try {
      return { version, previous, lockEntry: await writeLockEntry(s, slug, record) };
    } catch (e) {
      await restoreLink(link, previousTarget).catch(() => {});
      throw isAppError(e) ? e : new AppError('internal', `Activating ${slug} ${version} failed and was rolled back: ${(e as Error).message}`, { cause: e });
    }
  });
}
