/**
 * A newer version, before anything is applied: fetched into private staging through the import's
 * own fetchers, validated and scanned like an import, and compared with the installed version
 * (files added/removed/modified and unified text diffs, bounded in size for storage).
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AppDb } from '@/db/client';
import { DbBlobStore } from '../../cluster/blob-store';
import type { SkillsSettings } from '../../settings/skills-settings';
import { fetchedUrlFile, fetchSource } from '../service/import-sources';
import { stageFetched } from '../service/import-stage';
import { managedStore } from '../service/roots';
import type { ImportInput } from '../service/schemas';
import type { SharedSkillStore } from '../shared/shared-store';
import { diffDirs, type FileDiff, type TextDiff } from '../store';
import { versionDir } from '../store/manifest';
import type { ScanVerdict } from '../types';
import type { SourceCheck, UpdateTarget } from './sources';

/** Stored patches of one candidate stop past this many bytes; later text diffs are marked too large. */
export const MAX_STORED_PATCH_BYTES = 256 * 1024;

export interface Candidate {
  /** The source's name for it: a registry version, a tag or commit, an ETag. */
  ref: string;
  contentHash: string;
  verdict: ScanVerdict;
  findings: number;
  critical: number;
  /** The files that differ (unchanged ones are left out). */
  files: FileDiff[];
  textDiffs: TextDiff[];
  truncated: boolean;
  stagedAt: string;
}

/** The import that brings exactly this candidate in (a pinned version, tag or commit) over the installed slug. */
export function importFor(t: UpdateTarget, ref: string): ImportInput {
  const s = t.source;
  if (t.kind === 'clawhub') {
    const owner = typeof s.ownerHandle === 'string' && s.ownerHandle ? `@${s.ownerHandle}/` : '';
    return { source: { kind: 'clawhub', ref: `${owner}${String(s.slug)}@${ref}` }, slug: t.slug, force: true };
  }
  if (t.kind === 'git') {
    const subdir = typeof s.subdir === 'string' && s.subdir ? { subdir: s.subdir } : {};
    return { source: { kind: 'git', url: String(s.url), ref, ...subdir }, slug: t.slug, force: true };
  }
  return { source: { kind: 'url', url: String(s.url) }, slug: t.slug, force: true };
}

function bound(textDiffs: TextDiff[]): { textDiffs: TextDiff[]; truncated: boolean } {
  let used = 0;
  let truncated = false;
  const out = textDiffs.map((d) => {
    if (!('patch' in d)) return d;
    used += d.patch.length;
    if (used <= MAX_STORED_PATCH_BYTES) return d;
    truncated = true;
    return { path: d.path, tooLarge: true as const };
  });
  return { textDiffs: out, truncated };
}

export async function stageCandidate(
  t: UpdateTarget,
  found: Extract<SourceCheck, { state: 'newer' }>,
  o: { db: AppDb; dataDir: string; shared: SharedSkillStore; settings: SkillsSettings; work: string; signal?: AbortSignal; log: (l: string) => void },
): Promise<Candidate> {
  const store = managedStore(o.dataDir);
  const work = path.join(o.work, 'candidate');
  await fsp.mkdir(work, { recursive: true, mode: 0o700 });
  const fetched = found.downloaded
    ? await fetchedUrlFile(found.downloaded.file, work, String(t.source.url), found.downloaded.got)
    : await fetchSource(importFor(t, found.ref).source, {
        work,
        settings: o.settings,
        uploads: { db: o.db, blobs: new DbBlobStore(o.db), dir: store.uploadsDir },
        signal: o.signal,
        log: o.log,
      });
  const staged = await stageFetched(fetched, { work, settings: o.settings, slug: t.slug, signal: o.signal, log: o.log });
  await o.shared.fresh();
  const installedDir = versionDir(store.storeDir, t.slug, t.version);
  const diff = await diffDirs(installedDir, staged.root, t.version, found.ref);
  const bounded = bound(diff.textDiffs);
  const critical = staged.scan.findings.filter((f) => f.severity === 'critical').length;
  return {
    ref: found.ref,
    contentHash: staged.contentHash,
    verdict: staged.scan.verdict,
    findings: staged.scan.findings.length,
    critical,
    files: diff.files.filter((f) => f.status !== 'unchanged'),
    ...bounded,
    stagedAt: new Date().toISOString(),
  };
}
