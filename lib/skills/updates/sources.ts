/**
 * Which managed skills came from a checkable source, and the cheap "is there something newer"
 * question per source: ClawHub's version list (If-None-Match when an ETag is held), one
 * `git ls-remote`, or one conditional GET of the URL. Each costs one request when nothing changed.
 */
import path from 'node:path';
import { and, desc, eq, isNull } from 'drizzle-orm';
import semver from 'semver';
import type { AppDb } from '@/db/client';
import { skillInstalls, skillStoreSlugs } from '@/db/schema';
import type { SkillsSettings } from '../../settings/skills-settings';
import { createClawhubClient, fetchIfChanged, listRemoteRefs, type Validators } from '../remote';
import { COMMIT_RE } from '../remote/git-input';
import { urlPolicy } from '../service/import-sources';

export type SourceKind = 'clawhub' | 'git' | 'url';
export const SOURCE_KINDS: readonly SourceKind[] = ['clawhub', 'git', 'url'];

/** A managed skill whose active version was imported from a source that can be asked again. */
export interface UpdateTarget {
  slug: string;
  kind: SourceKind;
  /** The store version (vN) that is active. */
  version: string;
  contentHash: string;
  source: Record<string, unknown>;
  /** The installed version in the source's terms. */
  installedRef: string;
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

function installedRefOf(kind: SourceKind, s: Record<string, unknown>): string {
  if (kind === 'clawhub') return str(s.version) ?? '';
  if (kind === 'git') return str(s.commit) ?? '';
  return str(s.etag) ?? str(s.lastModified) ?? str(s.sha256) ?? '';
}

/** Every active managed skill with a clawhub, git or url source (the install record of its active version). */
export async function updateTargets(db: AppDb, slugs?: string[]): Promise<UpdateTarget[]> {
  const rows = await db.select({ slug: skillStoreSlugs.slug, active: skillStoreSlugs.active }).from(skillStoreSlugs).where(isNull(skillStoreSlugs.removedAt));
  const out: UpdateTarget[] = [];
  for (const r of rows) {
    if (!r.active || (slugs && !slugs.includes(r.slug))) continue;
    const [inst] = await db
      .select()
      .from(skillInstalls)
      .where(and(eq(skillInstalls.slug, r.slug), eq(skillInstalls.version, r.active)))
      .orderBy(desc(skillInstalls.installedAt))
      .limit(1);
    const kind = inst?.source.kind;
    if (kind !== 'clawhub' && kind !== 'git' && kind !== 'url') continue;
    out.push({ slug: r.slug, kind, version: r.active, contentHash: inst.contentHash, source: inst.source, installedRef: installedRefOf(kind, inst.source) });
  }
  return out.sort((a, b) => a.slug.localeCompare(b.slug));
}

/** What a cheap check learned. `unchanged`: the source answered "not modified" (or the same thing as before). */
export type SourceCheck =
  | { state: 'unchanged'; validators?: Validators }
  | { state: 'current'; validators?: Validators }
  | { state: 'pinned'; why: string }
  | { state: 'newer'; ref: string; validators?: Validators; downloaded?: { file: string; got: import('../remote').FetchedFile } };

export interface CheckOptions {
  settings: SkillsSettings;
  /** Validators of the last answer this source gave. */
  held: Validators;
  /** A private folder for a URL body that did change (it is the new version). */
  work: string;
  signal?: AbortSignal;
}

const SEMVER_TAG = /^v?\d+\.\d+/;

/** The newest of `candidates` by semver (ignoring a leading v), when newer than `current`. */
export function newerVersion(current: string, candidates: string[]): string | null {
  const cur = semver.coerce(current, { loose: true })?.version;
  let best: string | null = null;
  for (const c of candidates) {
    const v = semver.valid(c.replace(/^v/, ''), { loose: true });
    if (!v) continue;
    if (!best || semver.gt(v, semver.valid(best.replace(/^v/, ''), { loose: true })!)) best = c;
  }
  if (!best) return null;
  if (!cur) return best !== current ? best : null;
  return semver.gt(semver.valid(best.replace(/^v/, ''), { loose: true })!, cur) ? best : null;
}

async function checkClawhub(t: UpdateTarget, o: CheckOptions): Promise<SourceCheck> {
  const registry = str(t.source.registry) ?? o.settings.clawhubBaseUrl;
  const client = createClawhubClient({ baseUrl: registry });
  const got = await client.versionsIfChanged(String(t.source.slug), str(t.source.ownerHandle), o.held.etag, o.signal);
  if (got.notModified) return { state: 'unchanged', validators: o.held };
  const validators = got.etag ? { etag: got.etag } : {};
  const newer = newerVersion(
    t.installedRef,
    got.items.map((v) => v.version),
  );
  return newer ? { state: 'newer', ref: newer, validators } : { state: 'current', validators };
}

async function checkGit(t: UpdateTarget, o: CheckOptions): Promise<SourceCheck> {
  const ref = str(t.source.ref);
  if (ref && COMMIT_RE.test(ref)) return { state: 'pinned', why: `imported at commit ${ref.slice(0, 12)}` };
  const policy = { allowLocal: o.settings.gitAllowLocal, ssrf: urlPolicy(o.settings) };
  const url = String(t.source.url);
  if (ref && SEMVER_TAG.test(ref)) {
    const tags = await listRemoteRefs(url, { tags: true }, policy, o.signal);
    const names = tags.filter((r) => r.name.startsWith('refs/tags/')).map((r) => r.name.slice('refs/tags/'.length));
    const newer = newerVersion(ref, names);
    return newer ? { state: 'newer', ref: newer } : { state: 'current' };
  }
  const refs = await listRemoteRefs(url, { ref }, policy, o.signal);
  const hit = ref ? (refs.find((r) => r.name === `refs/heads/${ref}`) ?? refs.find((r) => r.name === `refs/tags/${ref}`)) : refs.find((r) => r.name === 'HEAD');
  if (!hit) return { state: 'pinned', why: `the repository no longer has ${ref ?? 'a HEAD'}` };
  return hit.commit !== t.installedRef ? { state: 'newer', ref: hit.commit } : { state: 'current' };
}

async function checkUrl(t: UpdateTarget, o: CheckOptions): Promise<SourceCheck> {
  const file = path.join(o.work, 'download');
  const held = o.held.etag || o.held.lastModified ? o.held : { etag: str(t.source.etag), lastModified: str(t.source.lastModified) };
  const got = await fetchIfChanged(String(t.source.url), file, urlPolicy(o.settings), held, o.signal);
  if ('notModified' in got) return { state: 'unchanged', validators: held };
  const validators = { ...(got.etag ? { etag: got.etag } : {}), ...(got.lastModified ? { lastModified: got.lastModified } : {}) };
  // Without validators every check downloads; the body's hash still tells whether it changed.
  if (got.sha256 === str(t.source.sha256)) return { state: 'current', validators };
  return { state: 'newer', ref: got.etag ?? got.lastModified ?? `sha256:${got.sha256}`, validators, downloaded: { file, got } };
}

export function checkSource(t: UpdateTarget, o: CheckOptions): Promise<SourceCheck> {
  return t.kind === 'clawhub' ? checkClawhub(t, o) : t.kind === 'git' ? checkGit(t, o) : checkUrl(t, o);
}
