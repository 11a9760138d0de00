/** Turning one contained skill folder into a SkillCopy: bounded SKILL.md read, parse, file list, hash. */
import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { contentHash, listSkillFiles, SkillFilesError } from '../files';
import { parseSkillMd } from '../manifest';
import type { ParsedSkill, SkillCopy, SkillFile, SkillRoot } from '../types';
import { type Candidate, SKILL_FILE } from './candidates';
import type { CopyCache } from './copy-cache';

export function copyId(source: string, rootPath: string, relDir: string): string {
  return createHash('sha256').update(`${source}:${rootPath}:${relDir}`).digest('hex').slice(0, 16);
}

/**
 * Reads at most `maxBytes` of SKILL.md and reports its real size. A larger file is not read
 * further: the parser gets the size and marks the skill invalid.
 */
export async function readSkillMd(file: string, maxBytes: number): Promise<{ text: string; sizeBytes: number }> {
  const fh = await fsp.open(file, 'r');
  try {
    const { size } = await fh.stat();
    const want = Math.min(size, maxBytes);
    const buf = Buffer.allocUnsafe(want);
    let read = 0;
    while (read < want) {
      const { bytesRead } = await fh.read(buf, read, want - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return { text: buf.subarray(0, read).toString('utf8'), sizeBytes: size };
  } finally {
    await fh.close();
  }
}

function withFilesError(parsed: ParsedSkill, e: unknown): ParsedSkill {
  const file = e instanceof SkillFilesError && e.file ? e.file : '.';
  const message = e instanceof Error ? e.message : String(e);
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

/** Throws when SKILL.md cannot be read (the caller reports the folder as unreadable). */
export type InspectCopy = (copy: SkillCopy, contents: ReadonlyMap<string, Buffer>) => void | Promise<void>;

export async function loadCopy(
  root: SkillRoot,
  cand: Candidate,
  maxSkillFileBytes: number,
  inspect?: InspectCopy,
  cache?: CopyCache,
  quiet = false,
): Promise<{ copy: SkillCopy; skillMdBytes: number }> {
  const key = cache?.keyOf(root, cand.relDir) ?? '';
  const kept = cache && (await cache.unchanged(key, cand.dir, maxSkillFileBytes, cand.dirIdentity, quiet));
  if (kept) return kept;
  // The listing reads every file once (hashing); SKILL.md's bytes are taken from it when it fits.
  let files: SkillFile[] = [];
  let filesError: unknown = null;
  const contents = new Map<string, Buffer>();
  const log = cache?.log();
  try {
    files = await listSkillFiles(cand.dir, {
      onFile: (p, b) => contents.set(p, b),
      known: cache?.known(key),
      onIdentity: log && ((p, id, st) => log.record(p, id, st)),
      onDir: log && ((p, id, st) => log.recordDir(p, id, st)),
    });
  } catch (e) {
    filesError = e;
  }
  const listed = contents.get(SKILL_FILE);
  const { text, sizeBytes } =
    listed && listed.length <= maxSkillFileBytes
      ? { text: listed.toString('utf8'), sizeBytes: listed.length }
      : await readSkillMd(path.join(cand.dir, SKILL_FILE), maxSkillFileBytes);
  const dirName = cand.relDir.slice(cand.relDir.lastIndexOf('/') + 1);
  let parsed = parseSkillMd(text, { dirName, file: SKILL_FILE, sizeBytes });
  if (sizeBytes > maxSkillFileBytes) parsed = withSizeError(parsed, sizeBytes, maxSkillFileBytes);
  if (filesError) parsed = withFilesError(parsed, filesError);
  const copy: SkillCopy = {
    id: copyId(root.kind, root.path, cand.relDir),
    source: root.kind,
    root: root.path,
    relDir: cand.relDir,
    dir: cand.dir,
    group: cand.group,
    parsed,
    files,
    contentHash: contentHash(files),
  };
  // Hand the bytes already read to the caller (the scanner) while they are in memory, then let them go.
  if (!filesError) await inspect?.(copy, contents);
  if (cache && log) {
    if (filesError) cache.forget(key);
    else cache.remember(key, { copy, skillMdBytes: sizeBytes }, maxSkillFileBytes, log);
  }
  return { copy, skillMdBytes: sizeBytes };
}
