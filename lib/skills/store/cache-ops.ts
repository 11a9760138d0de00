/**
 * Changes the version store takes from elsewhere (the database's copy of the store): a version
 * placed as it was recorded there (same number, same record) without activating it, and versions
 * dropped. Both hold the slug's lock like every other change of the store.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '@/lib/core/errors';
import { lstatOrNull } from '../../core/atomic-fs';
import { readManifest, slugStoreDir, type VersionRecord, validateSlug, validateVersion, versionDir, versionNumber, writeManifest } from './manifest';
import { activeVersion, assertLinkIsOurs, resolveStore, type SkillStore, withSlugLock } from './store-state';

/** Moves `stagedDir` (on the store's filesystem) in as `record.version` of `slug` and records it. */
export async function placeVersion(store: SkillStore, slug: string, record: VersionRecord, stagedDir: string): Promise<void> {
  validateSlug(slug);
  validateVersion(record.version);
  const s = resolveStore(store);
  await withSlugLock(s, slug, async () => {
    await assertLinkIsOurs(s, slug);
    const manifest = await readManifest(s.storeDir, slug);
    const dir = versionDir(s.storeDir, slug, record.version);
    if (manifest.versions.some((v) => v.version === record.version))
      throw new AppError('conflict', `Version ${record.version} of ${slug} is already in this store.`, { details: { slug, version: record.version } });
    await fsp.mkdir(slugStoreDir(s.storeDir, slug), { recursive: true });
    // a folder no record names is a leftover (recoverStore removes those too)
    await fsp.rm(dir, { recursive: true, force: true });
    await fsp.rename(path.resolve(stagedDir), dir);
    try {
      const versions = [...manifest.versions, record].sort((a, b) => versionNumber(a.version) - versionNumber(b.version));
      await writeManifest(s.storeDir, { ...manifest, versions });
    } catch (e) {
      await fsp.rm(dir, { recursive: true, force: true });
      throw e;
    }
  });
}

/** Removes stored versions of `slug` other than the active one; answers those removed. */
export async function dropVersions(store: SkillStore, slug: string, versions: readonly string[]): Promise<string[]> {
  validateSlug(slug);
  const s = resolveStore(store);
  return withSlugLock(s, slug, async () => {
    const active = await activeVersion(s, slug);
    const manifest = await readManifest(s.storeDir, slug);
    const drop = new Set(versions.filter((v) => v !== active));
    const removed: string[] = [];
    for (const v of drop) {
      const dir = versionDir(s.storeDir, slug, validateVersion(v));
      if ((await lstatOrNull(dir)) || manifest.versions.some((r) => r.version === v)) removed.push(v);
      await fsp.rm(dir, { recursive: true, force: true });
    }
    const kept = manifest.versions.filter((r) => !drop.has(r.version));
    if (kept.length !== manifest.versions.length) await writeManifest(s.storeDir, { ...manifest, versions: kept });
    return removed;
  });
}
