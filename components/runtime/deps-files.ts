/** Reading a skill folder chosen with <input type="file" webkitdirectory> into what POST /api/v1/packages/deps/check takes. */

export interface SkillFile {
  path: string;
  content: string;
}

export interface SkippedFile {
  path: string;
  reason: string;
}

export interface SkillFolder {
  /** The chosen folder's name (the top path segment the paths are made relative to). */
  folder: string;
  /** SKILL.md at the top of the folder, if there is one. */
  skillMd: string | null;
  files: SkillFile[];
  skipped: SkippedFile[];
  /** Files that were neither scripts nor SKILL.md (not sent, not listed one by one). */
  ignored: number;
}

const SCRIPT_EXT = /\.(py|js|mjs|cjs|ts|mts|cts|jsx|tsx)$/i;
export const MAX_FILE_BYTES = 512 * 1024;
export const MAX_FILES = 500;
/** The API takes 8 MiB per request; leave room for SKILL.md and the JSON around the files. */
const MAX_TOTAL_BYTES = 7 * 1024 * 1024;
/** Folders that hold installed or generated code, not the skill's own scripts. */
const SKIP_DIRS = new Set(['node_modules', '.git', '__pycache__', '.venv', 'venv', '.mypy_cache', '.pytest_cache']);
/** The server's rule for a skill-relative path (lib/packages/deps.ts): no leading /, no .., no control characters or backslashes. */
const RELATIVE_PATH = /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[^\0-\x1f\\]{1,512}$/;

/** The path inside the skill: the browser's "folder/scripts/run.py" without the chosen folder's name. */
export function skillRelativePath(file: File): { folder: string; path: string } {
  const full = (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name;
  const parts = full.split('/').filter(Boolean);
  if (parts.length < 2) return { folder: '', path: parts.join('/') };
  return { folder: parts[0], path: parts.slice(1).join('/') };
}

/** Which files are sent: scripts by extension, extensionless files (shebang scripts), SKILL.md at the top. */
export async function readSkillFolder(list: FileList | File[]): Promise<SkillFolder> {
  const all = Array.from(list);
  const out: SkillFolder = { folder: '', skillMd: null, files: [], skipped: [], ignored: 0 };
  let total = 0;
  // Stable order, so the cap keeps the same files every time.
  const entries = all.map((f) => ({ file: f, ...skillRelativePath(f) })).sort((a, b) => a.path.localeCompare(b.path));
  for (const { file, folder, path } of entries) {
    out.folder ||= folder;
    const segments = path.split('/');
    const base = segments[segments.length - 1];
    if (segments.slice(0, -1).some((s) => SKIP_DIRS.has(s))) {
      out.ignored++;
      continue;
    }
    if (path === 'SKILL.md') {
      if (file.size > 256 * 1024) out.skipped.push({ path, reason: 'SKILL.md is larger than 256 KiB' });
      else out.skillMd = await file.text();
      continue;
    }
    const isScript = SCRIPT_EXT.test(base);
    const extensionless = !base.includes('.');
    if (!isScript && !extensionless) {
      out.ignored++;
      continue;
    }
    if (!RELATIVE_PATH.test(path)) {
      out.skipped.push({ path, reason: 'the path has characters the API refuses' });
      continue;
    }
    if (file.size > MAX_FILE_BYTES) {
      out.skipped.push({ path, reason: `larger than ${MAX_FILE_BYTES / 1024} KiB` });
      continue;
    }
    if (out.files.length >= MAX_FILES) {
      out.skipped.push({ path, reason: `over the limit of ${MAX_FILES} files` });
      continue;
    }
    if (total + file.size > MAX_TOTAL_BYTES) {
      out.skipped.push({ path, reason: 'over the total size one check can send (7 MiB)' });
      continue;
    }
    const content = await file.text();
    if (content.includes('\0')) {
      out.skipped.push({ path, reason: 'a binary file' });
      continue;
    }
    // Extensionless files are scanned only for their #! line; others are not scripts.
    if (extensionless && !content.startsWith('#!')) {
      out.ignored++;
      continue;
    }
    total += file.size;
    out.files.push({ path, content });
  }
  return out;
}
