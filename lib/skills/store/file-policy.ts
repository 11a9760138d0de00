/**
 * The allowed-file-types policy of skill imports: every file of a staged skill (ignored folders
 * such as node_modules included, since they are installed too) is judged by its content and its
 * extension before anything is installed. Text of an allowed type passes; binaries only when an
 * admin allowed their extension or every binary; native executables only with the latter.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '@/lib/core/errors';
import { mapLimit } from '../../core/concurrency';
import type { SkillsSettings } from '../../settings/skills-settings';
import { CLAWHUB_DIR } from './clawhub-files';
import { classifyBytes, type FileClass, FileSniffer } from './file-types';

export type FileTypePolicy = Pick<SkillsSettings, 'allowedFileTypes' | 'allowedBinaryFileTypes' | 'allowBinaryFiles'>;

/** The setting that would admit a refused file. */
export type PolicySetting = 'allowedFileTypes' | 'allowedBinaryFileTypes' | 'allowBinaryFiles';

export interface RefusedFile {
  path: string;
  reason: string;
  /** The setting that would admit it; null for what no setting admits (links, devices). */
  setting: PolicySetting | null;
}

/** Lower-case extension of a file name; null without one (LICENSE) and for dotfiles (.gitignore, .env.local). */
export function extensionOf(file: string): string | null {
  const name = file.slice(file.lastIndexOf('/') + 1);
  if (name.startsWith('.')) return null;
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : null;
}

/** Why the policy refuses a file of this class, or null when it admits it. */
export function judgeFile(rel: string, cls: FileClass, policy: FileTypePolicy): RefusedFile | null {
  if (policy.allowBinaryFiles) return null;
  const ext = extensionOf(rel);
  if (cls.kind === 'executable') return { path: rel, reason: cls.what ?? 'a native executable', setting: 'allowBinaryFiles' };
  if (ext && policy.allowedBinaryFileTypes.includes(ext)) return null;
  const typeAllowed = !ext || policy.allowedFileTypes.includes(ext);
  if (cls.kind === 'binary')
    return {
      path: rel,
      reason: typeAllowed ? (cls.what ?? 'binary data') : `${cls.what ?? 'binary data'}; .${ext} is not an allowed file type`,
      setting: ext ? 'allowedBinaryFileTypes' : 'allowBinaryFiles',
    };
  return typeAllowed ? null : { path: rel, reason: `.${ext} is not an allowed file type`, setting: 'allowedFileTypes' };
}

const CHUNK = 64 * 1024;
const MAX_ENTRIES = 50_000;

/** Reads a regular file (never through a link) until the sniffer knows what it is. */
async function sniffFile(abs: string, signal?: AbortSignal): Promise<FileClass> {
  const fh = await fsp.open(abs, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  try {
    if (!(await fh.stat()).isFile()) return { kind: 'binary', what: 'not a regular file' };
    const sniffer = new FileSniffer();
    const buf = Buffer.allocUnsafe(CHUNK);
    while (sniffer.wantsMore) {
      signal?.throwIfAborted();
      const { bytesRead } = await fh.read(buf, 0, CHUNK, null);
      if (bytesRead === 0) break;
      sniffer.push(buf.subarray(0, bytesRead));
    }
    return sniffer.result();
  } finally {
    await fh.close();
  }
}

/** Every entry below `root`, relative with forward slashes; links and special files come back as refusals. */
async function walk(root: string): Promise<{ files: string[]; refused: RefusedFile[] }> {
  const files: string[] = [];
  const refused: RefusedFile[] = [];
  let seen = 0;
  async function dir(rel: string): Promise<void> {
    for (const e of await fsp.readdir(path.join(root, rel), { withFileTypes: true })) {
      if (++seen > MAX_ENTRIES) throw new AppError('validation', `The skill holds more than ${MAX_ENTRIES} files and folders.`);
      const r = rel ? `${rel}/${e.name}` : e.name;
      // The store replaces the source's own .clawhub folder with its origin file.
      if (e.isDirectory()) {
        if (r !== CLAWHUB_DIR) await dir(r);
      } else if (e.isFile()) files.push(r);
      else refused.push({ path: r, reason: e.isSymbolicLink() ? 'a symbolic link' : 'not a regular file', setting: null });
    }
  }
  await dir('');
  return { files, refused };
}

const SETTING_LABEL: Record<PolicySetting, string> = {
  allowedFileTypes: '"Allowed file types" (allowedFileTypes)',
  allowedBinaryFileTypes: '"Allowed binary file types" (allowedBinaryFileTypes)',
  allowBinaryFiles: '"Allow binary files" (allowBinaryFiles)',
};

/**
 * Refuses a staged skill holding a file the policy does not admit, naming each file and the
 * setting that would admit it. `contents`: bytes already read, by relative path.
 */
export async function assertFileTypesAllowed(
  root: string,
  policy: FileTypePolicy,
  opts: { contents?: ReadonlyMap<string, Buffer>; signal?: AbortSignal } = {},
): Promise<{ files: number }> {
  const { files, refused } = await walk(root);
  if (!policy.allowBinaryFiles) {
    const judged = await mapLimit(files, 4, async (rel) => {
      const kept = opts.contents?.get(rel);
      return judgeFile(rel, kept ? classifyBytes(kept) : await sniffFile(path.join(root, rel), opts.signal), policy);
    });
    refused.push(...judged.filter((r): r is RefusedFile => r !== null));
  }
  if (!refused.length) return { files: files.length };
  refused.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const shown = refused.slice(0, 10).map((r) => `${r.path} (${r.reason})`);
  const named = [...new Set(refused.flatMap((r) => (r.setting ? [r.setting] : [])))];
  throw new AppError(
    'file_type_not_allowed',
    `The skill holds ${refused.length} file(s) that skill imports do not accept: ${shown.join(', ')}${refused.length > 10 ? `, and ${refused.length - 10} more` : ''}. Nothing was installed.`,
    {
      hint: named.length
        ? `Remove them from the skill, or have an admin allow them in Settings → Skills → Import policy: ${named.map((s) => SETTING_LABEL[s]).join(' or ')}.`
        : 'Remove them from the skill: skills hold only regular files and folders.',
      details: { files: refused, settings: named },
    },
  );
}
