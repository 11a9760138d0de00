/**
 * The path from a store that lived in one replica's data dir to the shared one: at boot, each local
 * slug the database has never recorded is uploaded whole (its versions as blobs, which is active,
 * its pin), and a recorded version whose blob is gone from the database is put again from a local
 * copy of the same content. A slug the database already records is left to it: the database wins.
 */
import fsp from 'node:fs/promises';
import type { AppDb } from '@/db/client';
import type { BlobStore } from '../../cluster/blob-store';
import { TMP_PREFIX } from '../../core/atomic-fs';
import { logger } from '../../core/logger';
import { contentHash, listSkillFiles } from '../files';
import { activeVersion, readLock, type SkillStore } from '../store';
import { SLUG_RE } from '../store/manifest';
import { packVersion } from '../store/version-pack';
import { readRows, recordBlob, recordMigration, type VersionRow } from './rows';
import { localVersions } from './sync';

export interface MigrateDeps {
  store: SkillStore;
  blobs: BlobStore;
  db: AppDb;
  /** Runs `fn` holding the slug's lock (every replica's writes of it wait). */
  locked: <T>(slug: string, fn: () => Promise<T>) => Promise<T>;
}

const LIMITS = { maxFiles: 50_000, maxFileBytes: 256 * 1024 * 1024 };

async function diskHash(dir: string): Promise<string | null> {
  return listSkillFiles(dir, LIMITS).then(contentHash, () => null);
}

async function uploadSlug(d: MigrateDeps, slug: string): Promise<void> {
  const active = await activeVersion(d.store, slug);
  if (!active) return; // recoverStore leaves no slug without a link; a foreign folder is not ours
  const rows: VersionRow[] = [];
  for (const { record, dir } of await localVersions(d.store, slug)) {
    if ((await diskHash(dir)) !== record.contentHash) {
      logger.warn('skill store: a local version differs from its record and is not uploaded', { slug, version: record.version });
      continue;
    }
    const blob = await d.blobs.put(await packVersion(dir));
    rows.push({ slug, version: record.version, contentHash: record.contentHash, blobSha256: blob.sha256, blobSize: blob.size, record });
  }
  if (!rows.some((r) => r.version === active)) return;
  const entry = (await readLock(d.store.managedRoot)).skills[slug];
  const pin = { pinned: !!entry?.pinned, pinReason: entry?.pinned ? (entry.pinReason ?? null) : null };
  if (await recordMigration(d.db, slug, rows, active, pin)) logger.info('skill store: uploaded a local skill to the database', { slug, versions: rows.length });
}

async function restoreBlobs(d: MigrateDeps, slug: string, versions: VersionRow[]): Promise<void> {
  const local = new Map((await localVersions(d.store, slug)).map((v) => [v.record.version, v]));
  for (const v of versions) {
    if (await d.blobs.stat(v.blobSha256)) continue;
    const mine = local.get(v.version);
    if (!mine || mine.record.contentHash !== v.contentHash || (await diskHash(mine.dir)) !== v.contentHash) continue;
    const blob = await d.blobs.put(await packVersion(mine.dir));
    await recordBlob(d.db, slug, v.version, blob);
    logger.info('skill store: put a missing blob again from the local copy', { slug, version: v.version });
  }
}

export async function migrateLocalStore(d: MigrateDeps): Promise<void> {
  const names = await fsp.readdir(d.store.storeDir).catch(() => [] as string[]);
  for (const slug of names.filter((n) => !n.startsWith(TMP_PREFIX) && n.length <= 64 && SLUG_RE.test(n))) {
    try {
      await d.locked(slug, async () => {
        const rows = await readRows(d.db, slug);
        const row = rows.slugs.get(slug);
        if (!row) await uploadSlug(d, slug);
        else if (!row.removed) await restoreBlobs(d, slug, rows.versions.get(slug) ?? []);
      });
    } catch (e) {
      logger.warn('skill store: a local skill could not be recorded in the database', { slug, error: String(e) });
    }
  }
}
