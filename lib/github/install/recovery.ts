import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { githubPackages } from '@/db/schema';
import { isTempName, swapSymlinkSync } from '../../core/atomic-fs';
import type { RetainedVersion } from '../types';
import { manifestRow, readManifest, retainedOf } from './activate';
import { binOwner, currentVersion, githubLayout, PACKAGE_NAME } from './layout';

export interface RecoveryAction {
  path: string;
  action: string;
}

function rm(p: string, actions: RecoveryAction[], why: string): void {
  fs.rmSync(p, { recursive: true, force: true });
  actions.push({ path: p, action: why });
}

/**
 * Brings the runtime dir and the records back to one consistent state after a crash at any step.
 * Runs at boot before jobs are served, and on demand ("Repair"); every action is returned
 * for the log. Holds no lock itself: at boot nothing else runs; on demand the Repair job holds
 * the GitHub jobs lock exclusively, so no install is staging files beside it.
 */
export async function recoverGithubInstalls(db: AppDb, runtimeDir: string): Promise<RecoveryAction[]> {
  const l = githubLayout(runtimeDir);
  const actions: RecoveryAction[] = [];
  if (!fs.existsSync(l.root)) return actions;
  for (const e of fs.existsSync(l.tmp) ? fs.readdirSync(l.tmp) : []) rm(path.join(l.tmp, e), actions, 'removed an unfinished download/extraction');
  const rows = new Map((await db.select().from(githubPackages)).map((r) => [r.name, r]));

  for (const name of fs.readdirSync(l.root)) {
    if (name === '.tmp' || !PACKAGE_NAME.test(name)) continue;
    const dir = path.join(l.root, name);
    for (const e of fs.readdirSync(dir)) {
      if (isTempName(e) || /^current\..+/.test(e)) rm(path.join(dir, e), actions, 'removed a half-made current link');
      else if (e !== 'current' && !fs.existsSync(path.join(dir, e, '.install.json'))) rm(path.join(dir, e), actions, 'removed an incomplete version folder');
    }
    const live = currentVersion(l, name);
    const manifest = live ? readManifest(path.join(dir, live)) : null;
    const row = rows.get(name);
    if (!manifest) {
      if (row) {
        await db.update(githubPackages).set({ problem: 'The installed files are missing; reinstall the package.' }).where(eq(githubPackages.name, name));
        actions.push({ path: dir, action: 'marked broken: no usable current version on disk' });
      } else rm(dir, actions, 'removed files of a package with no record and no current version');
      continue;
    }
    // Versions neither current nor kept for rollback (e.g. committed just before a crash) are collected.
    const keep = new Set([
      manifest.version,
      ...((row?.retained as RetainedVersion[] | undefined) ?? []).map((r) => r.version),
      ...(row && row.version !== manifest.version ? [row.version] : []),
    ]);
    for (const e of fs.readdirSync(dir))
      if (e !== 'current' && !keep.has(e)) rm(path.join(dir, e), actions, 'removed a version that is neither current nor kept');
    if (!row || row.version !== manifest.version || row.sha256 !== manifest.sha256) {
      // Trust the disk: the record is rewritten from the version's own manifest.
      // The version the record named (the one that was live before the crash) becomes the rollback target.
      const before = row ? readManifest(path.join(dir, row.version)) : null;
      const retained = [
        ...(before && before.version !== manifest.version ? [retainedOf(before)] : []),
        ...((row?.retained as RetainedVersion[] | undefined) ?? []),
      ].filter(
        (r, i, all) =>
          r.version !== manifest.version && all.findIndex((x) => x.version === r.version) === i && fs.existsSync(path.join(dir, r.version, '.install.json')),
      );
      const values = manifestRow(manifest, retained);
      await db.insert(githubPackages).values(values).onConflictDoUpdate({ target: githubPackages.name, set: values });
      actions.push({ path: dir, action: `record rewritten from disk: ${manifest.tag} is current` });
    }
    // Every binary of the current version has its bin/ link; a name taken by something else is left alone.
    for (const b of manifest.binaries) {
      const link = path.join(l.bin, b.name);
      if (fs.lstatSync(link, { throwIfNoEntry: false })) continue;
      swapSymlinkSync(link, path.join('..', 'github', name, 'current', b.name));
      actions.push({ path: link, action: 'restored a missing bin/ link' });
    }
  }
  for (const b of fs.existsSync(l.bin) ? fs.readdirSync(l.bin) : []) {
    const p = path.join(l.bin, b);
    // GoClaw-style swap leftovers: restore a missing binary from .bak, drop the rest.
    const bak = /^(.+)\.bak\.\d+$/.exec(b);
    if (bak) {
      const orig = path.join(l.bin, bak[1]);
      if (!fs.existsSync(orig)) {
        fs.renameSync(p, orig);
        actions.push({ path: orig, action: 'restored from its .bak copy' });
      } else rm(p, actions, 'removed a stale .bak copy');
      continue;
    }
    if (/\.failed-\d+$/.test(b)) rm(p, actions, 'removed a failed swap leftover');
    else if (isTempName(b) || /\.[0-9a-f-]{36}$/.test(b)) rm(p, actions, 'removed a half-made bin/ link');
    else if (binOwner(l, b) !== null && !fs.existsSync(p)) rm(p, actions, 'removed a dangling bin/ link');
  }
  return actions;
}
