/**
 * Bringing this replica's store of one slug to what the database records: missing versions are
 * downloaded into staging, checked (the blob's sha256 as it streams, then the content hash of the
 * files) and moved in; the recorded version is activated and pinned; versions and slugs the
 * database no longer has go. A version that fails its checks is left out, never served.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError, isAppError } from '@/lib/core/errors';
import type { BlobStore } from '../../cluster/blob-store';
import { lstatOrNull } from '../../core/atomic-fs';
import { contentHash, listSkillFiles } from '../files';
import {
  activateVersion,
  activeVersion,
  type ClawhubLock,
  createStagingDir,
  readLock,
  removeSkill,
  type SkillStore,
  setPinned,
  type VersionRecord,
} from '../store';
import { dropVersions, placeVersion } from '../store/cache-ops';
import { readManifest, versionDir } from '../store/manifest';
import { linkPathOf } from '../store/store-state';
import { unpackVersion } from '../store/version-pack';
import type { SlugRow, VersionRow } from './rows';

export interface SlugSyncResult {
  changed: boolean;
  /** Versions that could not be brought in (tampered or missing blob), with why. */
  failed: { version: string; error: string }[];
}

const LIMITS = { maxFiles: 50_000, maxFileBytes: 256 * 1024 * 1024 };

/** Downloads one version into staging, checks it, and moves it into the store under its recorded number. */
export async function fetchVersion(store: SkillStore, blobs: BlobStore, row: VersionRow): Promise<void> {
  const staging = await createStagingDir(store);
  try {
    await unpackVersion(await blobs.get(row.blobSha256), staging);
    const hash = contentHash(await listSkillFiles(staging, LIMITS));
    if (hash !== row.contentHash)
      throw new AppError('hash_mismatch', `The stored files of ${row.slug} ${row.version} hash to ${hash}, not the recorded ${row.contentHash}.`);
    await placeVersion(store, row.slug, row.record, staging);
  } finally {
    await fsp.rm(staging, { recursive: true, force: true });
  }
}

async function hasLocal(store: SkillStore, slug: string): Promise<boolean> {
  return (await lstatOrNull(linkPathOf(store, slug))) !== null || (await lstatOrNull(path.join(store.storeDir, slug))) !== null;
}

/** Removes the slug from this replica's store when present; answers whether it was. */
async function removeLocal(store: SkillStore, slug: string): Promise<boolean> {
  if (!(await hasLocal(store, slug))) return false;
  try {
    await removeSkill(store, slug);
    return true;
  } catch (e) {
    // not_found: nothing of ours; conflict: a folder someone put there by hand, not ours to remove
    if (isAppError(e) && (e.code === 'not_found' || e.code === 'conflict')) return false;
    throw e;
  }
}

/** Applies the database's record of `slug` (null: never recorded) to this replica's store. */
export async function syncSlug(store: SkillStore, blobs: BlobStore, slug: string, row: SlugRow | null, versions: VersionRow[]): Promise<SlugSyncResult> {
  const result: SlugSyncResult = { changed: false, failed: [] };
  if (!row || row.removed || !row.active) {
    result.changed = await removeLocal(store, slug);
    return result;
  }
  const wanted = new Map(versions.map((v) => [v.version, v]));
  const manifest = await readManifest(store.storeDir, slug);
  const local = new Map(manifest.versions.map((v) => [v.version, v]));
  let active = await activeVersion(store, slug);
  // A local version of another content than the recorded one of that number (stores made apart before they were shared) gives way.
  const stale = [...local.values()].filter((v) => !wanted.has(v.version) || wanted.get(v.version)!.contentHash !== v.contentHash).map((v) => v.version);
  if (active && stale.includes(active)) {
    await fsp.unlink(linkPathOf(store, slug));
    active = null;
  }
  if (stale.length) {
    await dropVersions(store, slug, stale);
    result.changed = true;
  }
  const present = new Set<string>();
  for (const v of wanted.values()) {
    const have = local.get(v.version);
    if (have && !stale.includes(v.version) && (await lstatOrNull(versionDir(store.storeDir, slug, v.version)))?.isDirectory()) {
      present.add(v.version);
      continue;
    }
    try {
      if (have) await dropVersions(store, slug, [v.version]); // its record without its folder
      await fetchVersion(store, blobs, v);
      present.add(v.version);
      result.changed = true;
    } catch (e) {
      result.failed.push({ version: v.version, error: e instanceof Error ? e.message : String(e) });
    }
  }
  if (active !== row.active && present.has(row.active)) {
    await activateVersion(store, slug, row.active);
    result.changed = true;
  }
  const entry = (await readLock(store.managedRoot)).skills[slug];
  if (entry && (!!entry.pinned !== row.pinned || (row.pinned && (entry.pinReason ?? null) !== row.pinReason))) {
    await setPinned(store, slug, row.pinned, row.pinReason ?? undefined);
    result.changed = true;
  }
  return result;
}

/** The versions of a local slug as recorded in its manifest, with their folders (what the boot migration uploads). */
export async function localVersions(store: SkillStore, slug: string): Promise<{ record: VersionRecord; dir: string }[]> {
  const manifest = await readManifest(store.storeDir, slug);
  const out: { record: VersionRecord; dir: string }[] = [];
  for (const record of manifest.versions) {
    const dir = versionDir(store.storeDir, slug, record.version);
    if ((await lstatOrNull(dir))?.isDirectory()) out.push({ record, dir });
  }
  return out;
}

/** Whether this replica's store already holds what the rows say for `slug` (no change needed; cheap: the link, the manifest, the lock). */
export async function inSync(store: SkillStore, slug: string, row: SlugRow | null, versions: VersionRow[], lock: ClawhubLock): Promise<boolean> {
  if (!row || row.removed || !row.active) return !(await hasLocal(store, slug));
  if ((await activeVersion(store, slug)) !== row.active) return false;
  const manifest = await readManifest(store.storeDir, slug);
  if (manifest.versions.length !== versions.length) return false;
  const local = new Map(manifest.versions.map((v) => [v.version, v.contentHash]));
  if (versions.some((v) => local.get(v.version) !== v.contentHash)) return false;
  const entry = lock.skills[slug];
  return !!entry?.pinned === row.pinned && (!row.pinned || (entry?.pinReason ?? null) === row.pinReason);
}
