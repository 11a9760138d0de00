/**
 * Validation of git import input (url, ref, subdir) before any of it reaches a git argument.
 * Only https URLs (host checked by the SSRF guard) and, when allowed, local absolute paths or
 * file:// URLs pass; transport helpers (`ext::`, `fd::`), option-looking values, ssh and git://
 * are refused outright.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AppError } from '@/lib/core/errors';
import { trimEndChar } from '@/lib/core/text';

export const REF_RE = /^[A-Za-z0-9._/-]{1,200}$/;
export const COMMIT_RE = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const SUBDIR_SEGMENT_RE = /^[A-Za-z0-9._@+ -]{1,255}$/;
const HTTPS_PATH_RE = /^\/[A-Za-z0-9._~%/+-]*$/;
const LOCAL_PATH_RE = /^\/[A-Za-z0-9._~/+@-]*$/;

export type GitRemote = { kind: 'https'; url: string; host: string; port: number } | { kind: 'local'; url: string; path: string };

const invalid = (message: string, field: string, hint?: string) => new AppError('validation', message, { details: { field }, ...(hint ? { hint } : {}) });

/** Parses the repository URL into the form git receives (`https://…` or `file:///…`). */
export function parseGitRemote(raw: string, allowLocal: boolean): GitRemote {
  const url = String(raw ?? '').trim();
  if (!url) throw invalid('The repository URL is empty.', 'url');
  if (url.startsWith('-')) throw invalid('The repository URL must not start with "-".', 'url');
  if (/^[A-Za-z0-9+.-]*::/.test(url)) throw invalid('Git transport helpers ("<transport>::<address>") are not allowed.', 'url');
  if (/[\s\0\\]/.test(url)) throw invalid('The repository URL contains whitespace, NUL or a backslash.', 'url');
  if (url.startsWith('https://')) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw invalid(`"${url.slice(0, 200)}" is not a valid URL.`, 'url');
    }
    if (parsed.username || parsed.password) throw invalid('Credentials in the repository URL are not allowed.', 'url');
    if (parsed.search || parsed.hash) throw invalid('The repository URL must not have a query or fragment.', 'url');
    if (!HTTPS_PATH_RE.test(parsed.pathname) || parsed.pathname.length < 2 || parsed.pathname.split('/').includes('..')) {
      throw invalid('The repository URL path has characters that are not allowed.', 'url');
    }
    const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return { kind: 'https', url: parsed.href, host, port: parsed.port ? Number(parsed.port) : 443 };
  }
  if (url.startsWith('file://') || url.startsWith('/')) {
    if (!allowLocal) {
      throw new AppError('not_allowed', 'Local repositories (file:// or absolute paths) are not allowed here.', {
        details: { field: 'url' },
        hint: 'Use an https:// repository URL.',
      });
    }
    let local: string;
    try {
      local = url.startsWith('file://') ? fileURLToPath(url) : url;
    } catch {
      throw invalid('The file:// URL is not a valid local path.', 'url');
    }
    const clean = trimEndChar(local, '/');
    if (!clean || !LOCAL_PATH_RE.test(clean) || path.posix.normalize(clean) !== clean) {
      throw invalid('The local repository path must be a plain absolute path.', 'url');
    }
    return { kind: 'local', url: pathToFileURL(clean).href, path: clean };
  }
  throw invalid('Only https:// repository URLs are supported.', 'url', 'ssh, git:// and other transports are refused; use the https URL of the repository.');
}

/** Validates a branch, tag or commit name. */
export function validateRef(ref: string | undefined): string | undefined {
  if (ref === undefined || ref === '') return undefined;
  if (
    !REF_RE.test(ref) ||
    ref.startsWith('-') ||
    ref.includes('..') ||
    ref.startsWith('/') ||
    ref.endsWith('/') ||
    ref.includes('//') ||
    ref.endsWith('.lock')
  ) {
    throw invalid(`"${ref.slice(0, 200)}" is not a valid branch, tag or commit.`, 'ref');
  }
  return ref;
}

/** Validates a folder inside the repository; returns it normalised ("" for the root). */
export function validateSubdir(subdir: string | undefined): string {
  if (subdir === undefined) return '';
  const trimmed = trimEndChar(subdir, '/');
  if (trimmed === '' || trimmed === '.') return '';
  if (trimmed.startsWith('/') || trimmed.includes('\\')) throw invalid('The folder must be a relative path inside the repository.', 'subdir');
  const segments = trimmed.split('/');
  for (const s of segments) {
    if (s === '..' || s === '.' || s === '' || s === '.git' || !SUBDIR_SEGMENT_RE.test(s)) {
      throw invalid(`"${subdir.slice(0, 200)}" is not a valid folder inside the repository.`, 'subdir');
    }
  }
  return segments.join('/');
}
