/**
 * Reading and small changes of the version store: which version is active (the target of the
 * managedRoot/<slug> symlink), the list of versions, removal, pinning. Layout:
 *   storeDir/<slug>/vN/                immutable copy of one version
 *   storeDir/<slug>/versions.json      manifest (manifest.ts)
 *   managedRoot/<slug> -> storeDir/<slug>/vN   the active version
 *   managedRoot/.clawhub/lock.json     ClawHub lock (clawhub-files.ts)
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '@/lib/core/errors';
import { lstatOrNull } from '../../core/atomic-fs';
import { type ClawhubLockEntry, updateLock } from './clawhub-files';
import { withKeyLock } from './key-lock';
import { readManifest, slugStoreDir, VERSION_RE, type VersionLockInfo, type VersionRecord, validateSlug } from './manifest';

export interface SkillStore {
  /** Where immutable version folders live; staging folders must be on the same filesystem. */
  storeDir: string;
  /** The managed skills root that agents read (symlinks to active versions, .clawhub/lock.json). */
  managedRoot: string;
  /** Clock for installedAt (epoch ms); default Date.now. */
  now?: () => number;
}

export interface VersionInfo {
  version: string;
  contentHash: string;
  installedAt: number;
  fileCount: number;
  bytes: number;
  lock: VersionLockInfo;
  active: boolean;
  /** False when the folder is missing from disk. */
  present: boolean;
}

export const resolveStore = (store: SkillStore): SkillStore => ({
  ...store,
  storeDir: path.resolve(store.storeDir),
  managedRoot: path.resolve(store.managedRoot),
});

export const linkPathOf = (store: SkillStore, slug: string) => path.join(path.resolve(store.managedRoot), slug);

/** Serialises every change of one slug of one store. */
export const withSlugLock = <T>(store: SkillStore, slug: string, fn: () => Promise<T>) => withKeyLock(`slug\0${path.resolve(store.storeDir)}\0${slug}`, fn);

/** The version managedRoot/<slug> points at, or null (no link, or a link this store did not make). */
export async function activeVersion(store: SkillStore, slug: string): Promise<string | null> {
  validateSlug(slug);
  const s = resolveStore(store);
  const link = linkPathOf(s, slug);
  const st = await lstatOrNull(link);
  if (!st?.isSymbolicLink()) return null;
  const target = path.resolve(s.managedRoot, await fsp.readlink(link));
  const version = path.basename(target);
  return path.dirname(target) === slugStoreDir(s.storeDir, slug) && VERSION_RE.test(version) ? version : null;
}

/** A real folder, file or a link to elsewhere at managedRoot/<slug> belongs to someone else: never replace it. */
export async function assertLinkIsOurs(store: SkillStore, slug: string): Promise<void> {
  const link = linkPathOf(store, slug);
  const st = await lstatOrNull(link);
  if (!st) return;
  const what = !st.isSymbolicLink()
    ? `a real ${st.isDirectory() ? 'folder' : 'file'}`
    : path.dirname(path.resolve(path.dirname(link), await fsp.readlink(link))) !== slugStoreDir(path.resolve(store.storeDir), slug)
      ? 'a symbolic link to somewhere outside the version store'
      : null;
  if (what) {
    throw new AppError('conflict', `${link} is ${what}, not managed by the version store; move it away first.`, { details: { path: link } });
  }
}

export async function listVersions(store: SkillStore, slug: string): Promise<VersionInfo[]> {
  validateSlug(slug);
  const s = resolveStore(store);
  const [manifest, active] = await Promise.all([readManifest(s.storeDir, slug), activeVersion(s, slug)]);
  return Promise.all(
    manifest.versions.map(async (v) => ({
      version: v.version,
      contentHash: v.contentHash,
      installedAt: v.installedAt,
      fileCount: v.files.length,
      bytes: v.files.reduce((n, f) => n + f.size, 0),
      lock: v.lock,
      active: v.version === active,
      present: (await lstatOrNull(path.join(slugStoreDir(s.storeDir, slug), v.version)))?.isDirectory() ?? false,
    })),
  );
}

/** The lock entry for `record` becoming active; pinning survives version changes. */
export function lockEntryFor(record: VersionRecord, previous?: ClawhubLockEntry): ClawhubLockEntry {
  const entry: ClawhubLockEntry = { version: record.lock.version, installedAt: record.installedAt };
  for (const key of ['ownerHandle', 'sourceRef', 'canonicalRef'] as const) {
    if (record.lock[key] !== undefined) entry[key] = record.lock[key];
  }
  if (previous?.pinned !== undefined) entry.pinned = previous.pinned;
  if (previous?.pinReason !== undefined) entry.pinReason = previous.pinReason;
  return entry;
}

export async function writeLockEntry(store: SkillStore, slug: string, record: VersionRecord): Promise<ClawhubLockEntry> {
  let written!: ClawhubLockEntry;
  await updateLock(store.managedRoot, (lock) => {
    written = lockEntryFor(record, lock.skills[slug]);
    lock.skills[slug] = written;
  });
  return written;
}

/** Pin (or unpin) a skill in lock.json: ClawHub's `pinned`/`pinReason`. */
export async function setPinned(store: SkillStore, slug: string, pinned: boolean, reason?: string): Promise<ClawhubLockEntry> {
  validateSlug(slug);
  return withSlugLock(store, slug, async () => {
    let entry: ClawhubLockEntry | undefined;
    await updateLock(store.managedRoot, (lock) => {
      entry = lock.skills[slug];
      if (!entry) return;
      if (pinned) {
        entry.pinned = true;
        if (reason) entry.pinReason = reason;
        else delete entry.pinReason;
      } else {
        delete entry.pinned;
        delete entry.pinReason;
      }
    });
    if (!entry) throw new AppError('not_found', `Skill ${slug} is not in the lock file.`, { details: { slug } });
    return entry;
  });
}

/** Remove a skill: the symlink first (agents stop seeing it), then the stored versions, then the lock entry. */
export async function removeSkill(store: SkillStore, slug: string): Promise<{ removedVersions: string[] }> {
  validateSlug(slug);
  const s = resolveStore(store);
  return withSlugLock(s, slug, async () => {
    await assertLinkIsOurs(s, slug);
    const manifest = await readManifest(s.storeDir, slug);
    const link = linkPathOf(s, slug);
    const hadLink = (await lstatOrNull(link)) !== null;
    const slugDir = slugStoreDir(s.storeDir, slug);
    const hadDir = (await lstatOrNull(slugDir)) !== null;
    if (!hadLink && !hadDir) throw new AppError('not_found', `Skill ${slug} is not installed in the managed store.`, { details: { slug } });
    if (hadLink) await fsp.unlink(link);
    await fsp.rm(slugDir, { recursive: true, force: true });
    await updateLock(s.managedRoot, (lock) => {
      delete lock.skills[slug];
    });
    return { removedVersions: manifest.versions.map((v) => v.version) };
  });
}
