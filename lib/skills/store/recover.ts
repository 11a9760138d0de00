/**
 * Boot-time recovery of the version store (DESIGN rule 5): removes what a crash left behind
 * (`.tmp-` staging folders, temp symlinks and temp files, version folders the manifest never
 * recorded) and makes every managedRoot/<slug> link point at an existing version with a
 * matching lock entry. Run it before any install starts: it deletes in-progress staging.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { lstatOrNull, swapSymlink, TMP_PREFIX } from '../../core/atomic-fs';
import { CLAWHUB_DIR, readLock, updateLock } from './clawhub-files';
import { MANIFEST_NAME, readManifest, SLUG_RE, VERSION_RE, type VersionsManifest, versionNumber, writeManifest } from './manifest';
import { activeVersion, linkPathOf, lockEntryFor, resolveStore, type SkillStore, withSlugLock } from './store-state';

export interface RecoveryReport {
  /** Temp folders, links and files removed. */
  removedTemp: string[];
  /** Version folders no manifest recorded (a crash between the move and the manifest write). */
  removedOrphans: string[];
  /** Manifest records whose folder was gone. */
  droppedRecords: string[];
  /** Slugs whose link was dangling and now points at the newest stored version. */
  repointed: { slug: string; version: string }[];
  /** Slugs with stored versions but no link (an interrupted first install or removal): removed. */
  removedSkills: string[];
  /** Slugs whose lock entry was rewritten to match the active version. */
  lockSynced: string[];
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  return fsp.readdir(dir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return [] as string[];
    throw e;
  });
}

async function removeTemps(dir: string, report: RecoveryReport): Promise<string[]> {
  const names = await readdirOrEmpty(dir);
  for (const n of names.filter((x) => x.startsWith(TMP_PREFIX))) {
    await fsp.rm(path.join(dir, n), { recursive: true, force: true });
    report.removedTemp.push(path.join(dir, n));
  }
  return names.filter((x) => !x.startsWith(TMP_PREFIX));
}

/** Drop records without a folder and folders without a record (except the link target). */
async function reconcileSlug(storeDir: string, slug: string, names: string[], active: string | null, report: RecoveryReport): Promise<VersionsManifest> {
  const manifest = await readManifest(storeDir, slug);
  const onDisk = new Set(names.filter((n) => VERSION_RE.test(n)));
  const kept = manifest.versions.filter((v) => onDisk.has(v.version));
  for (const v of manifest.versions) if (!onDisk.has(v.version)) report.droppedRecords.push(`${slug}/${v.version}`);
  for (const n of onDisk) {
    if (n !== active && !kept.some((v) => v.version === n)) {
      await fsp.rm(path.join(storeDir, slug, n), { recursive: true, force: true });
      report.removedOrphans.push(`${slug}/${n}`);
    }
  }
  const next = { ...manifest, versions: kept };
  if (kept.length !== manifest.versions.length) await writeManifest(storeDir, next);
  return next;
}

async function recoverSlug(store: SkillStore, slug: string, report: RecoveryReport): Promise<void> {
  const slugDir = path.join(store.storeDir, slug);
  const names = await removeTemps(slugDir, report);
  const link = linkPathOf(store, slug);
  const linkStat = await lstatOrNull(link);
  if (!linkStat) {
    // no link: the skill was never activated, or its removal was interrupted after the unlink
    await fsp.rm(slugDir, { recursive: true, force: true });
    await updateLock(store.managedRoot, (lock) => void delete lock.skills[slug]);
    report.removedSkills.push(slug);
    return;
  }
  // a real folder or a link made by someone else: not ours to change
  if (!linkStat.isSymbolicLink() || path.dirname(path.resolve(store.managedRoot, await fsp.readlink(link))) !== slugDir) return;
  let active = await activeVersion(store, slug);
  if (active && !(await lstatOrNull(path.join(/*turbopackIgnore: true*/ slugDir, active)))?.isDirectory()) active = null;
  const manifest = await reconcileSlug(
    store.storeDir,
    slug,
    names.filter((n) => n !== MANIFEST_NAME),
    active,
    report,
  );
  if (!active) {
    const newest = [...manifest.versions].sort((a, b) => versionNumber(b.version) - versionNumber(a.version))[0];
    if (!newest) {
      await fsp.unlink(link);
      await fsp.rm(slugDir, { recursive: true, force: true });
      await updateLock(store.managedRoot, (lock) => void delete lock.skills[slug]);
      report.removedSkills.push(slug);
      return;
    }
    await swapSymlink(link, path.join(slugDir, newest.version));
    report.repointed.push({ slug, version: newest.version });
    active = newest.version;
  }
  const record = manifest.versions.find((v) => v.version === active);
  const entry = (await readLock(store.managedRoot)).skills[slug];
  if (record && (entry?.version !== record.lock.version || entry.installedAt !== record.installedAt)) {
    await updateLock(store.managedRoot, (lock) => {
      lock.skills[slug] = lockEntryFor(record, lock.skills[slug]);
    });
    report.lockSynced.push(slug);
  }
}

export async function recoverStore(store: SkillStore): Promise<RecoveryReport> {
  const s = resolveStore(store);
  const report: RecoveryReport = { removedTemp: [], removedOrphans: [], droppedRecords: [], repointed: [], removedSkills: [], lockSynced: [] };
  await removeTemps(s.managedRoot, report);
  await removeTemps(path.join(s.managedRoot, CLAWHUB_DIR), report);
  const slugs = (await removeTemps(s.storeDir, report)).filter((n) => SLUG_RE.test(n) && n.length <= 64);
  // without the managed root, missing links say nothing (a moved or unmounted root): change no skill
  if (!(await lstatOrNull(s.managedRoot))?.isDirectory()) return report;
  for (const slug of slugs) {
    if (!(await lstatOrNull(path.join(s.storeDir, slug)))?.isDirectory()) continue;
    await withSlugLock(s, slug, () => recoverSlug(s, slug, report));
  }
  return report;
}

/**
 * Empties the import staging folder: at boot, with the data dir held by this process, everything in
 * it is what an import interrupted by a crash left behind. Returns the paths removed.
 */
export async function sweepStaging(stagingDir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const n of await readdirOrEmpty(stagingDir)) {
    await fsp.rm(path.join(stagingDir, n), { recursive: true, force: true });
    removed.push(path.join(stagingDir, n));
  }
  return removed;
}
