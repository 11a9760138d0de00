/**
 * Extraction of a skill archive into a private staging folder:
 * zip, tar.gz or plain tar only, streamed through the shared entry policy plus the skill
 * policy (archive-policy.ts), then the layout check that finds the skill folder. On any
 * failure the staging folder is removed; nothing outside it is ever written.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '@/lib/core/errors';
import { DETECT_BYTES, decompress, detectFormat } from '../../archive/formats';
import { toArchiveError } from '../../archive/fs-errors';
import { extractTar } from '../../archive/tar';
import { extractZip } from '../../archive/zip';
import { resolveLimits, type SkillArchiveLimits, SkillArchiveSink } from './archive-policy';
import { locateSkillRoot } from './skill-root';

export { DEFAULT_SKILL_ARCHIVE_LIMITS, type SkillArchiveLimits } from './archive-policy';

export type SkillArchiveFormat = 'zip' | 'tar.gz' | 'tar';

export interface ExtractedSkill {
  /** Absolute path of the skill folder inside the staging folder (it holds SKILL.md). */
  root: string;
  format: SkillArchiveFormat;
  /** Entries of the archive (files and folders). */
  entries: number;
  /** Bytes of file content written. */
  bytes: number;
}

/** Single SKILL.md imports (a bare URL) are capped like one archive entry would be, but tighter. */
export const MAX_SINGLE_SKILL_MD_BYTES = 1024 * 1024;

async function readHead(file: string): Promise<Buffer> {
  const fh = await fsp.open(file, 'r');
  try {
    const buf = Buffer.alloc(DETECT_BYTES);
    const { bytesRead } = await fh.read(buf, 0, DETECT_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** The first decompressed bytes of a gzip file (to tell a tar.gz from any other gzip). */
async function gunzipHead(file: string): Promise<Buffer> {
  const stream = decompress('gzip', fs.createReadStream(file));
  const parts: Buffer[] = [];
  let len = 0;
  try {
    for await (const chunk of stream) {
      parts.push(chunk as Buffer);
      len += (chunk as Buffer).length;
      if (len >= DETECT_BYTES) break;
    }
  } catch {
    // a corrupt gzip stream: whatever was inflated decides (usually nothing → unsupported)
  } finally {
    stream.destroy();
  }
  return Buffer.concat(parts).subarray(0, DETECT_BYTES);
}

async function detectSkillFormat(file: string): Promise<SkillArchiveFormat> {
  const magic = detectFormat(await readHead(file));
  if (magic === 'zip') return 'zip';
  if (magic === 'tar') return 'tar';
  if (magic === 'gzip') {
    if (detectFormat(await gunzipHead(file)) === 'tar') return 'tar.gz';
    throw new AppError('unsupported_format', 'The file is gzip-compressed but does not hold a tar archive; skill archives must be zip, tar.gz or tar.', {
      details: { format: 'gzip' },
    });
  }
  throw new AppError(
    'unsupported_format',
    `Skill archives must be zip, tar.gz or tar; this file is ${magic === 'unknown' ? 'not a recognised archive' : `${magic}`}.`,
    {
      details: { format: magic },
    },
  );
}

/**
 * Extract `file` into `stagingDir` (created; must not exist or be empty) and return the skill folder.
 * Throws AppError: unsupported_format, encrypted_archive, unsafe_archive, archive_too_large,
 * missing_skill_md, disk_full, conflict (stagingDir not empty), invalid_input; an AbortError on abort.
 */
export async function extractSkillArchive(file: string, stagingDir: string, limits: SkillArchiveLimits = {}, signal?: AbortSignal): Promise<ExtractedSkill> {
  signal?.throwIfAborted();
  const policy = resolveLimits(limits);
  const st = await fsp.stat(file).catch((e: NodeJS.ErrnoException) => {
    throw new AppError('validation', `The archive ${path.basename(file)} cannot be read: ${e.code ?? e.message}.`, { cause: e });
  });
  if (!st.isFile()) throw new AppError('validation', `The archive ${path.basename(file)} is not a regular file.`);
  if (st.size > policy.maxArchiveBytes) {
    throw new AppError('archive_too_large', `The archive is ${st.size} bytes, over the ${policy.maxArchiveBytes} byte limit.`, {
      details: { size: st.size, maxArchiveBytes: policy.maxArchiveBytes },
    });
  }
  const format = await detectSkillFormat(file);

  const sink = new SkillArchiveSink(stagingDir, policy, st.size, signal);
  try {
    await sink.open();
  } catch (e) {
    throw toArchiveError(e); // stagingDir was not ours (not empty): leave it alone
  }
  // Bytes of tar framing (headers, pax records, padding) allowed on top of the content cap.
  const rawCap = policy.maxTotalBytes + policy.maxEntries * 4096 + 1024 * 1024;
  try {
    if (format === 'zip') await extractZip(file, sink);
    else {
      const input = fs.createReadStream(file, { signal });
      await extractTar(format === 'tar' ? input : decompress('gzip', input), sink, rawCap);
    }
    signal?.throwIfAborted();
    const root = await locateSkillRoot(stagingDir);
    return { root, format, entries: sink.entries.length, bytes: sink.extractedBytes };
  } catch (e) {
    await fsp.rm(stagingDir, { recursive: true, force: true });
    if (signal?.aborted) throw signal.reason;
    throw toArchiveError(e);
  }
}

/** Stage a bare SKILL.md (URL import of a single file) as a one-file skill folder. */
export async function stageSkillFile(skillMdText: string, stagingDir: string): Promise<{ root: string; bytes: number }> {
  const data = Buffer.from(skillMdText, 'utf8');
  if (data.length > MAX_SINGLE_SKILL_MD_BYTES) {
    throw new AppError('archive_too_large', `SKILL.md is ${data.length} bytes, over the ${MAX_SINGLE_SKILL_MD_BYTES} byte limit.`, {
      details: { size: data.length, max: MAX_SINGLE_SKILL_MD_BYTES },
    });
  }
  if (data.includes(0)) throw new AppError('invalid_skill', 'SKILL.md contains a NUL byte; it must be text.');
  const existing = await fsp.readdir(stagingDir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw toArchiveError(e);
  });
  if (existing && existing.length > 0) throw new AppError('conflict', `Staging directory ${stagingDir} is not empty.`, { details: { stagingDir } });
  if (!existing) await fsp.mkdir(stagingDir, { recursive: true, mode: 0o755 });
  try {
    const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);
    const fh = await fsp.open(path.join(stagingDir, 'SKILL.md'), flags, 0o644);
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    return { root: path.resolve(stagingDir), bytes: data.length };
  } catch (e) {
    await fsp.rm(stagingDir, { recursive: true, force: true });
    throw toArchiveError(e);
  }
}
