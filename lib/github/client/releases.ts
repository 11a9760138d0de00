import { AppError } from '@/lib/core/errors';
import type { GithubClient } from './client';
import { nextLink } from './client';

/** The fields of a release asset Skilldock uses. */
export interface GithubAsset {
  id: number;
  name: string;
  size: number;
  state?: string;
  content_type?: string;
  browser_download_url: string;
  url: string;
  /** `sha256:<hex>` on newer releases, null on older ones. */
  digest?: string | null;
}

export interface GithubRelease {
  id: number;
  tag_name: string;
  name: string | null;
  draft: boolean;
  prerelease: boolean;
  created_at: string;
  published_at: string | null;
  assets: GithubAsset[];
}

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/;
const REPO = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** `owner/repo`, validated with GitHub's rules before it becomes part of a URL. */
export function parseRepo(repo: string): { owner: string; repo: string } {
  const [owner, name, ...rest] = repo.split('/');
  if (rest.length || !owner || !name || !OWNER.test(owner) || !REPO.test(name) || name === '.' || name === '..' || name.startsWith('.')) {
    throw new AppError('invalid_spec', `"${repo}" is not an owner/repository name.`, { hint: 'For example cli/cli or BurntSushi/ripgrep.' });
  }
  return { owner, repo: name };
}

const path = (r: { owner: string; repo: string }) => `repos/${encodeURIComponent(r.owner)}/${encodeURIComponent(r.repo)}`;

/** Drafts are never installable; only uploaded assets are usable. */
function clean(r: GithubRelease): GithubRelease {
  return { ...r, assets: (r.assets ?? []).filter((a) => !a.state || a.state === 'uploaded') };
}

/** The newest stable release (`/releases/latest`, with ETag). */
export async function latestRelease(client: GithubClient, repo: string, signal?: AbortSignal) {
  const r = parseRepo(repo);
  const res = await client.getJson<GithubRelease>(`${path(r)}/releases/latest`, signal, `${repo} has no published stable release`);
  return { release: clean(res.body), notModified: res.notModified };
}

/** A release by its exact tag: a 404 is an error, never a fuzzy match. */
export async function releaseByTag(client: GithubClient, repo: string, tag: string, signal?: AbortSignal) {
  const r = parseRepo(repo);
  if (!tag || /[\s\0]/.test(tag) || tag.length > 255) throw new AppError('invalid_spec', `"${tag}" is not a tag.`);
  const res = await client.getJson<GithubRelease>(`${path(r)}/releases/tags/${encodeURIComponent(tag)}`, signal, `${repo} has no release tagged ${tag}`);
  return { release: clean(res.body), notModified: res.notModified };
}

/** Releases newest first, following `Link: rel="next"` (never building page URLs), drafts dropped. */
export async function listReleases(client: GithubClient, repo: string, opts: { limit?: number; maxPages?: number; signal?: AbortSignal } = {}) {
  const r = parseRepo(repo);
  const limit = opts.limit ?? 30;
  const out: GithubRelease[] = [];
  let next: string | null = `${path(r)}/releases?per_page=${Math.min(100, Math.max(limit, 1))}`;
  let pages = 0;
  let notModified = true;
  while (next && pages < (opts.maxPages ?? 3) && out.length < limit) {
    const res: Awaited<ReturnType<GithubClient['getJson']>> = await client.getJson<GithubRelease[]>(next, opts.signal, `${repo} was not found`);
    if (!Array.isArray(res.body)) throw new AppError('upstream_error', `GitHub sent a non-list for the releases of ${repo}.`);
    notModified &&= res.notModified;
    out.push(...(res.body as GithubRelease[]).filter((x) => !x.draft).map(clean));
    next = nextLink(res.link);
    pages++;
  }
  return { releases: out.slice(0, limit), notModified };
}
