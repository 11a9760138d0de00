// A loopback stand-in for the ClawHub registry: the documented routes in the API's
// shapes, served from in-memory skills, with real ZIP archives and the real content hash.
//
// Shapes of the answers that vary in the wild, fixed here:
// - ambiguous slug on JSON routes (/skills/{slug}, /versions, /install, /verify): 409 application/json
//   `{code:"AMBIGUOUS_SKILL_SLUG", message, slug, matches:[{ownerHandle, slug, ref:"@owner/slug", url}]}`;
//   on /download: 409 text/plain `Ambiguous skill slug "x": @alice/x, @bob/x. Pass ownerHandle.`
// - every other error: text/plain (404 unknown skill or version, 410 deleted version, 403 malicious
//   version on /install and /download, 429 with Retry-After and RateLimit-* headers).
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { contentHash } from '../../lib/skills/files';
import { zipBuffer } from './zip';

export interface FakeModeration {
  verdict: 'clean' | 'suspicious' | 'malicious';
  reasonCodes?: string[];
}
export interface FakeSkillVersion {
  version: string;
  files: Record<string, string | Buffer>;
  moderation?: FakeModeration;
  /** Soft-deleted (yanked): 410 wherever the version is asked for by name. */
  deleted?: boolean;
  changelog?: string;
}
export interface FakeSkill {
  slug: string;
  owner: string;
  displayName?: string;
  summary?: string;
  /** In publish order: the last one not deleted is "latest". */
  versions: FakeSkillVersion[];
}
export interface FakeClawhubOptions {
  skills: FakeSkill[];
  minCliVersion?: string;
}
export interface FakeClawhub {
  url: string;
  /** Every request's path and query, in order. */
  requests: string[];
  close(): Promise<void>;
  /** The next `count` requests get 429 with `Retry-After: retryAfterSeconds`. */
  limitNext(count: number, retryAfterSeconds: number): void;
  /** Answer GET `fromPath` (path only) with a 302 to `location`. */
  redirect(fromPath: string, location: string): void;
  /** The ZIP served for a version (byte-identical across calls). */
  zipOf(slug: string, version: string, owner?: string): Buffer;
  /** The ClawHub content hash of a version's files. */
  hashOf(slug: string, version: string, owner?: string): string;
  /** Publishes a new version of an existing skill (it becomes the latest). */
  publish(slug: string, version: FakeSkillVersion, owner?: string): Promise<void>;
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const hashFiles = (files: Record<string, string | Buffer>) => contentHash(Object.entries(files).map(([path, c]) => ({ path, sha256: sha256(c) })));

class Reply extends Error {
  constructor(
    readonly status: number,
    readonly body: string | Buffer | object,
    readonly headers: Record<string, string | number> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

export async function startFakeClawhub(opts: FakeClawhubOptions): Promise<FakeClawhub> {
  const requests: string[] = [];
  const redirects = new Map<string, string>();
  const zips = new Map<FakeSkillVersion, Buffer>();
  let limited = { count: 0, retryAfter: 0 };
  let base = '';

  const latestOf = (s: FakeSkill) => [...s.versions].reverse().find((v) => !v.deleted) ?? null;
  // Built once up front (the writer is asynchronous); the same bytes are served on every request.
  for (const v of opts.skills.flatMap((s) => s.versions)) zips.set(v, await zipBuffer(v.files));
  const zipFor = (v: FakeSkillVersion) => {
    const zip = zips.get(v);
    if (!zip) throw new Error(`fake clawhub: version ${v.version} was added after the server started`);
    return zip;
  };
  const blocked = (v: FakeSkillVersion) => v.moderation?.verdict === 'malicious';

  function pick(slug: string, owner: string | null, textErrors = false): FakeSkill {
    const all = opts.skills.filter((s) => s.slug === slug);
    const found = owner ? all.filter((s) => s.owner.toLowerCase() === owner.toLowerCase()) : all;
    if (found.length === 0) throw new Reply(404, 'Skill not found');
    if (found.length > 1) {
      const refs = found.map((s) => `@${s.owner}/${slug}`);
      if (textErrors) throw new Reply(409, `Ambiguous skill slug "${slug}": ${refs.join(', ')}. Pass ownerHandle.`);
      const matches = found.map((s) => ({ ownerHandle: s.owner, slug, ref: `@${s.owner}/${slug}`, url: `${base}/${s.owner}/${slug}` }));
      throw new Reply(409, { code: 'AMBIGUOUS_SKILL_SLUG', message: `Ambiguous skill slug "${slug}"`, slug, matches });
    }
    return found[0];
  }

  function versionOf(skill: FakeSkill, name: string | null): FakeSkillVersion {
    if (!name) {
      const latest = latestOf(skill);
      if (!latest) throw new Reply(404, 'Version not found');
      return latest;
    }
    const v = skill.versions.find((x) => x.version === name);
    if (!v) throw new Reply(404, 'Version not found');
    if (v.deleted) throw new Reply(410, 'Version not available');
    return v;
  }

  const moderationOf = (v: FakeSkillVersion | null) => {
    const m = v?.moderation ?? { verdict: 'clean' as const };
    return {
      isSuspicious: m.verdict === 'suspicious',
      isMalwareBlocked: m.verdict === 'malicious',
      verdict: m.verdict,
      reasonCodes: m.reasonCodes ?? [],
      summary: null,
      evidence: [],
    };
  };

  function route(url: URL, ifNoneMatch: string | null): unknown {
    const q = (k: string) => url.searchParams.get(k)?.trim() || null;
    const owner = q('ownerHandle') ?? q('owner');
    const redirect = redirects.get(url.pathname);
    if (redirect) throw new Reply(302, '', { location: redirect });
    if (url.pathname === '/.well-known/clawhub.json') {
      return { apiBase: base, authBase: base, registry: base, ...(opts.minCliVersion ? { minCliVersion: opts.minCliVersion } : {}) };
    }
    if (url.pathname === '/api/v1/search') {
      const term = (q('q') ?? '').toLowerCase();
      const limit = Number(q('limit') ?? 20);
      const hits = opts.skills.filter((s) => [s.slug, s.displayName ?? '', s.summary ?? ''].some((t) => t.toLowerCase().includes(term)));
      return {
        results: hits.slice(0, limit).map((s) => ({
          score: s.slug === term ? 10 : 1,
          slug: s.slug,
          displayName: s.displayName ?? s.slug,
          summary: s.summary ?? null,
          version: latestOf(s)?.version ?? null,
          updatedAt: 1_700_000_000_000,
          ownerHandle: s.owner,
          owner: { handle: s.owner },
        })),
      };
    }
    if (url.pathname === '/api/v1/download') {
      const skill = pick(q('slug') ?? '', owner, true);
      const v = versionOf(skill, q('version'));
      if (blocked(v)) throw new Reply(403, 'Blocked: this skill version is flagged as malicious.');
      throw new Reply(200, zipFor(v), { 'content-type': 'application/zip' });
    }
    if (url.pathname === '/api/v1/resolve') {
      const slug = q('slug');
      const hash = q('hash');
      if (!slug || !hash) throw new Reply(400, 'Missing slug or hash');
      if (!/^[a-f0-9]{64}$/.test(hash)) throw new Reply(400, 'Invalid hash');
      const skill = pick(slug, owner);
      const match = skill.versions.find((v) => !v.deleted && hashFiles(v.files) === hash);
      const latest = latestOf(skill);
      return { slug, match: match ? { version: match.version } : null, latestVersion: latest ? { version: latest.version } : null };
    }
    const m = /^\/api\/v1\/skills\/([^/]+)(?:\/([^/]+))?(?:\/([^/]+))?$/.exec(url.pathname);
    if (!m) throw new Reply(404, 'Not found');
    const [, slug, action, extra] = m;
    const skill = pick(decodeURIComponent(slug).toLowerCase(), owner);
    const latest = latestOf(skill);
    if (!action) {
      return {
        skill: { slug: skill.slug, displayName: skill.displayName ?? skill.slug, summary: skill.summary ?? null, tags: { latest: latest?.version ?? null } },
        latestVersion: latest ? { version: latest.version, createdAt: 1_700_000_000_000, changelog: latest.changelog ?? '' } : null,
        metadata: null,
        owner: { handle: skill.owner, displayName: skill.owner },
        moderation: latest?.moderation ? moderationOf(latest) : null,
      };
    }
    if (action === 'versions' && !extra) {
      const listed = skill.versions.filter((v) => !v.deleted).map((v) => v.version);
      const etag = `"${sha256(listed.join(',')).slice(0, 16)}"`;
      if (ifNoneMatch === etag) throw new Reply(304, '', { etag });
      throw new Reply(
        200,
        {
          items: skill.versions
            .filter((v) => !v.deleted)
            .reverse()
            .map((v) => ({ version: v.version, createdAt: 1_700_000_000_000, changelog: v.changelog ?? '' })),
          nextCursor: null,
        },
        { etag },
      );
    }
    if (action === 'versions' && extra) {
      const v = versionOf(skill, decodeURIComponent(extra));
      const files = Object.entries(v.files).map(([path, c]) => ({ path, size: Buffer.byteLength(c), sha256: sha256(c) }));
      return {
        skill: { slug: skill.slug, displayName: skill.displayName ?? skill.slug },
        version: { version: v.version, files, security: { status: v.moderation?.verdict ?? 'clean' } },
      };
    }
    if (action === 'install') {
      const v = versionOf(skill, q('version'));
      if (blocked(v)) throw new Reply(403, 'Blocked: this skill version is flagged as malicious.');
      const downloadUrl = `${base}/api/v1/download?slug=${skill.slug}&version=${v.version}`;
      return { ok: true, slug: skill.slug, installKind: 'archive', archive: { version: v.version, downloadUrl } };
    }
    if (action === 'verify') {
      const v = versionOf(skill, q('version'));
      const verdict = v.moderation?.verdict ?? 'clean';
      const reasons = verdict === 'malicious' ? ['malware.blocked'] : verdict === 'suspicious' ? ['security.suspicious'] : [];
      return {
        schema: 'clawhub.skill.verify.v1',
        ok: reasons.length === 0,
        decision: reasons.length === 0 ? 'pass' : 'fail',
        reasons,
        slug: skill.slug,
        version: v.version,
        publisherHandle: skill.owner,
        security: { status: verdict, signals: [] },
      };
    }
    if (action === 'moderation') {
      const v = q('version') ? versionOf(skill, q('version')) : latest;
      if (!v?.moderation || v.moderation.verdict === 'clean') throw new Reply(404, 'Moderation details unavailable');
      return { moderation: moderationOf(v) };
    }
    throw new Reply(404, 'Not found');
  }

  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const send = (status: number, body: string | Buffer | object, headers: Record<string, string | number> = {}) => {
      const isText = typeof body === 'string';
      const data = Buffer.isBuffer(body) ? body : Buffer.from(isText ? body : JSON.stringify(body));
      const type = Buffer.isBuffer(body) ? 'application/octet-stream' : isText ? 'text/plain; charset=utf-8' : 'application/json';
      if (status === 304) return void res.writeHead(304, headers).end();
      res.writeHead(status, { 'content-type': type, 'content-length': data.length, ...headers });
      res.end(req.method === 'HEAD' ? undefined : data);
    };
    if (limited.count > 0) {
      limited.count--;
      return send(429, 'Rate limit exceeded', {
        'retry-after': limited.retryAfter,
        'ratelimit-limit': 3000,
        'ratelimit-remaining': 0,
        'ratelimit-reset': limited.retryAfter,
      });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'Method not allowed');
    try {
      send(200, route(new URL(req.url ?? '/', base), req.headers['if-none-match'] ?? null) as object);
    } catch (e) {
      if (e instanceof Reply) send(e.status, e.body, e.headers);
      else send(500, `Internal error: ${(e as Error).message}`);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const find = (slug: string, version: string, owner?: string) => {
    const v = opts.skills.find((s) => s.slug === slug && (!owner || s.owner === owner))?.versions.find((x) => x.version === version);
    if (!v) throw new Error(`fake clawhub: no ${owner ?? ''}/${slug}@${version}`);
    return v;
  };
  return {
    url: base,
    requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
    limitNext: (count, retryAfter) => void (limited = { count, retryAfter }),
    redirect: (from, location) => void redirects.set(from, location),
    zipOf: (slug, version, owner) => zipFor(find(slug, version, owner)),
    hashOf: (slug, version, owner) => hashFiles(find(slug, version, owner).files),
    publish: async (slug, version, owner) => {
      const skill = opts.skills.find((x) => x.slug === slug && (!owner || x.owner === owner));
      if (!skill) throw new Error(`fake clawhub: no skill ${slug}`);
      zips.set(version, await zipBuffer(version.files));
      skill.versions.push(version);
    },
  };
}
