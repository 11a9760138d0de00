/** Turning one contained skill folder into a SkillCopy: bounded SKILL.md read, parse, file list, hash. */
import { createHash } from 'node:crypto';
import { type FolderLoad, type FolderLoader, loadSkillFolder } from '../folder-load';
import type { ParsedSkill, ScanResult, SkillCopy, SkillRoot } from '../types';
import { type Candidate, SKILL_FILE } from './candidates';
import type { CopyCache } from './copy-cache';

export function copyId(source: string, rootPath: string, relDir: string): string {
  return createHash('sha256').update(`${source}:${rootPath}:${relDir}`).digest('hex').slice(0, 16);
}

function withFilesError(parsed: ParsedSkill, e: NonNullable<FolderLoad['filesError']>): ParsedSkill {
  const file = e.file || '.';
  const message = e.message;
  return {
    ...parsed,
    valid: false,
    diagnostics: [...parsed.diagnostics, { file, code: 'files.unsafe', severity: 'error', message: `The skill's files cannot be listed: ${message}` }],
  };
}

/** The parser knows the default limit only; a configured lower limit is reported the same way. */
function withSizeError(parsed: ParsedSkill, size: number, limit: number): ParsedSkill {
  if (parsed.diagnostics.some((d) => d.code === 'file.too-large')) return parsed;
  const message = `SKILL.md is ${size.toLocaleString('en-US')} bytes; the limit is ${limit.toLocaleString('en-US')}. Move reference material into references/ files`;
  return { ...parsed, valid: false, diagnostics: [...parsed.diagnostics, { file: SKILL_FILE, code: 'file.too-large', severity: 'error', message }] };
}

/**
 * Receives each copy loaded from disk with the bytes its listing read, and the scan when the loader
 * scanned (then `contents` is empty: the bytes stayed in the worker that read them).
 */
export type InspectCopy = (copy: SkillCopy, contents: ReadonlyMap<string, Buffer>, scan?: ScanResult) => void | Promise<void>;

/** Throws when SKILL.md cannot be read (the caller reports the folder as unreadable). */
export async function loadCopy(
  root: SkillRoot,
  cand: Candidate,
  maxSkillFileBytes: number,
  inspect?: InspectCopy,
  cache?: CopyCache,
  quiet = false,
  load: FolderLoader = loadSkillFolder,
): Promise<{ copy: SkillCopy; skillMdBytes: number }> {
  const key = cache?.keyOf(root, cand.relDir) ?? '';
  const kept = cache && (await cache.unchanged(key, cand.dir, maxSkillFileBytes, cand.dirIdentity, quiet));
  if (kept) return kept;
  const log = cache?.log();
  const dirName = cand.relDir.slice(cand.relDir.lastIndexOf('/') + 1);
  // The listing reads every file once (hashing); SKILL.md's bytes are taken from it when it fits.
  const loaded = await load(cand.dir, { known: cache?.known(key), maxSkillFileBytes, dirName, scan: !!inspect });
  const { listing, filesError, skillMdBytes } = loaded;
  if (log && listing) {
    for (const [p, id, st] of listing.dirIdentities) log.recordDir(p, id, st);
    for (const [p, id, st] of listing.fileIdentities) log.record(p, id, st);
  }
  let parsed = loaded.parsed;
  if (skillMdBytes > maxSkillFileBytes) parsed = withSizeError(parsed, skillMdBytes, maxSkillFileBytes);
  if (filesError) parsed = withFilesError(parsed, filesError);
  const files = listing?.files ?? [];
  const copy: SkillCopy = {
    id: copyId(root.kind, root.path, cand.relDir),
    source: root.kind,
    root: root.path,
    relDir: cand.relDir,
    dir: cand.dir,
    group: cand.group,
    parsed,
    files,
    contentHash: loaded.contentHash,
  };
  // Hand the bytes already read to the caller (the scanner) while they are in memory, then let them go.
  if (!filesError) await inspect?.(copy, new Map(listing?.contents), loaded.scan);
  if (cache && log) {
    if (filesError) cache.forget(key);
    else cache.remember(key, { copy, skillMdBytes }, maxSkillFileBytes, log);
  }
  return { copy, skillMdBytes };
}
