/**
 * ClawHub registry client: discovery, search, skill and version metadata, install
 * resolution (ambiguous slugs surface their owners for a picker), verify + moderation, exact-version
 * archive download and content-hash resolution. It only ever talks to the configured base URL.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import semver from 'semver';
import { AppError, isAppError } from '@/lib/core/errors';
import { createRegistryHttp, type RegistryHttpOptions, registryError } from './clawhub-http';
import { parseSkillRef, validateHash, validateOwner, validateSlug, validateVersion } from './clawhub-ref';
import {
  type ClawhubDiscovery,
  type ClawhubDownload,
  type ClawhubHashResolution,
  type ClawhubInstallPlan,
  type ClawhubModeration,
  type ClawhubSearchHit,
  type ClawhubSkill,
  type ClawhubVerdict,
  type ClawhubVersion,
  obj,
  readDiscovery,
  readModeration,
  readSearchHit,
  readSkill,
  readVersion,
  str,
  strings,
} from './clawhub-types';
import { streamToFile, tooLarge } from './file-sink';
import { COMMIT_RE } from './git-input';

export { formatSkillRef, parseSkillRef, type SkillRef } from './clawhub-ref';
export * from './clawhub-types';

export interface ClawhubClientOptions extends RegistryHttpOptions {
  /** Compared with the registry's minCliVersion; default "1.0.0". */
  clientVersion?: string;
}

/** True when the registry's verdict means the skill must not be installed. */
export function isBlockedVerdict(v: Pick<ClawhubVerdict, 'verdict' | 'reasonCodes' | 'isMalwareBlocked'>): boolean {
  return (
    v.isMalwareBlocked ||
    v.verdict === 'malicious' ||
    v.reasonCodes.some((c) => c.startsWith('malicious.') || c.startsWith('malware.') || c === 'blocked.malware')
  );
}

const skillPath = (slug: string, rest = '') => `api/v1/skills/${encodeURIComponent(slug)}${rest}`;

export function createClawhubClient(options: ClawhubClientOptions) {
  const http = createRegistryHttp(options);
  const clientVersion = options.clientVersion ?? '1.0.0';

  async function search(q: string, limit = 20, signal?: AbortSignal): Promise<ClawhubSearchHit[]> {
    const query = String(q ?? '')
      .trim()
      .slice(0, 200);
    if (!query) return [];
    const body = obj(
      await http.getJson(
        'api/v1/search',
        { q: query, limit: Number.isFinite(limit) ? Math.min(Math.max(1, Math.floor(limit)), 100) : 20 },
        { what: 'searching', signal },
      ),
    );
    return (Array.isArray(body.results) ? body.results : []).map(readSearchHit).filter((h): h is ClawhubSearchHit => h !== null);
  }

  /** Owners that publish `slug`, for the picker when the registry did not list them. */
  async function ownersOf(slug: string, signal?: AbortSignal): Promise<string[]> {
    const hits = await search(slug, 50, signal).catch(() => []);
    return [...new Set(hits.filter((h) => h.slug === slug && h.ownerHandle).map((h) => h.ownerHandle!))];
  }

  /** Fills in the owners of an ambiguous_slug error from search when its body named none. */
  async function withOwners<T>(slug: string, run: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    try {
      return await run();
    } catch (e) {
      if (isAppError(e) && e.code === 'ambiguous_slug' && Array.isArray(e.details?.owners) && e.details.owners.length === 0) {
        const owners = await ownersOf(slug, signal);
        throw new AppError('ambiguous_slug', e.message, { details: { ...e.details, owners, refs: owners.map((o) => `@${o}/${slug}`) }, hint: e.hint });
      }
      throw e;
    }
  }

  const ownerQuery = (ownerHandle?: string) => (ownerHandle ? { ownerHandle: validateOwner(ownerHandle) } : {});

  return {
    baseUrl: http.base.href,

    async discover(signal?: AbortSignal): Promise<ClawhubDiscovery> {
      const doc = readDiscovery(await http.getJson('.well-known/clawhub.json', {}, { what: 'reading the discovery document', signal }), http.base.origin);
      const min = doc.minCliVersion ? semver.coerce(doc.minCliVersion) : null;
      return { ...doc, supported: !min || semver.gte(clientVersion, min) };
    },

    search,

    async getSkill(slug: string, ownerHandle?: string, signal?: AbortSignal): Promise<ClawhubSkill> {
      const s = validateSlug(slug);
      return withOwners(
        s,
        async () => readSkill(await http.getJson(skillPath(s), ownerQuery(ownerHandle), { what: `reading ${s}`, slug: s, signal }), s),
        signal,
      );
    },

    async versions(slug: string, ownerHandle?: string, signal?: AbortSignal): Promise<ClawhubVersion[]> {
      const s = validateSlug(slug);
      const body = obj(
        await withOwners(
          s,
          () => http.getJson(skillPath(s, '/versions'), ownerQuery(ownerHandle), { what: `listing versions of ${s}`, slug: s, signal }),
          signal,
        ),
      );
      return (Array.isArray(body.items) ? body.items : []).map(readVersion).filter((v): v is ClawhubVersion => v !== null);
    },

    /**
     * The version list sent with If-None-Match when an ETag is held: `notModified` on 304, so an
     * unchanged skill costs one request and no body. The ETag of the answer is kept for the next call.
     */
    async versionsIfChanged(
      slug: string,
      ownerHandle: string | undefined,
      etag: string | undefined,
      signal?: AbortSignal,
    ): Promise<{ notModified: true } | { notModified: false; items: ClawhubVersion[]; etag?: string }> {
      const s = validateSlug(slug);
      const what = `listing versions of ${s}`;
      const held = etag && /^[\x20-\x7e]{1,256}$/.test(etag) ? { 'if-none-match': etag } : undefined;
      const res = await http.get(skillPath(s, '/versions'), ownerQuery(ownerHandle), { accept: 'application/json', what, signal, headers: held });
      if (res.status === 304 && held) {
        await res.body?.cancel();
        return { notModified: true };
      }
      if (!res.ok) throw await http.fail(res, { what, slug: s });
      const body = obj(await res.json().catch(() => ({})));
      const tag = res.headers.get('etag') ?? undefined;
      const items = (Array.isArray(body.items) ? body.items : []).map(readVersion).filter((v): v is ClawhubVersion => v !== null);
      return { notModified: false, items, etag: tag && /^[\x20-\x7e]{1,256}$/.test(tag) ? tag : undefined };
    },

    /** Resolves `slug`, `@owner/slug` or `@owner/slug@version` to what to download (exact version, never "latest" instead). */
    async resolveInstall(ref: string, signal?: AbortSignal): Promise<ClawhubInstallPlan> {
      const r = parseSkillRef(ref);
      const query = { ...ownerQuery(r.ownerHandle), version: r.version };
      const body = obj(
        await withOwners(r.slug, () => http.getJson(skillPath(r.slug, '/install'), query, { what: `resolving ${ref}`, slug: r.slug, signal }), signal),
      );
      if (body.ok === false) {
        const status = typeof body.status === 'number' ? body.status : 502;
        throw registryError(status, String(body.message ?? body.reason ?? ''), new Headers(), { what: `resolving ${ref}`, slug: r.slug });
      }
      const owner = r.ownerHandle ? { ownerHandle: r.ownerHandle } : {};
      if (body.installKind === 'github') {
        const g = obj(body.github);
        const github = {
          repo: str(g.repo) ?? '',
          path: str(g.path) ?? '',
          commit: str(g.commit) ?? '',
          contentHash: str(g.contentHash) ?? '',
          sourceUrl: str(g.sourceUrl) ?? '',
        };
        if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(github.repo) || !COMMIT_RE.test(github.commit)) {
          throw new AppError('registry_error', `ClawHub sent an invalid GitHub source for ${ref}.`, { details: { github } });
        }
        return { installKind: 'github', slug: r.slug, ...owner, version: str(obj(body.archive).version) ?? r.version ?? null, github };
      }
      const version = str(obj(body.archive).version) ?? str(body.version);
      if (!version) throw new AppError('registry_error', `ClawHub did not name a version for ${ref}.`);
      if (r.version && version !== r.version) {
        throw new AppError('registry_error', `ClawHub offered version ${version} instead of the requested ${r.version}.`, {
          details: { requested: r.version, offered: version },
        });
      }
      return { installKind: 'archive', slug: r.slug, ...owner, version: validateVersion(version), downloadUrl: str(obj(body.archive).downloadUrl) };
    },

    /** Verify envelope + moderation of one version; block when `isBlockedVerdict` says so. */
    async verify(slug: string, version: string, ownerHandle?: string, signal?: AbortSignal): Promise<ClawhubVerdict> {
      const s = validateSlug(slug);
      const v = validateVersion(version);
      const q = { ...ownerQuery(ownerHandle), version: v };
      const env = obj(await withOwners(s, () => http.getJson(skillPath(s, '/verify'), q, { what: `verifying ${s}@${v}`, slug: s, signal }), signal));
      let moderation = null;
      try {
        moderation = readModeration(await http.getJson(skillPath(s, '/moderation'), q, { what: `reading moderation of ${s}`, slug: s, signal }));
      } catch (e) {
        // 404 "Moderation details unavailable" = nothing flagged.
        if (!(isAppError(e) && e.code === 'not_found')) throw e;
      }
      const securityStatus = str(obj(env.security).status);
      const reasons = strings(env.reasons);
      const reasonCodes = [...new Set([...(moderation?.reasonCodes ?? []), ...reasons])];
      const verdict = moderation?.verdict ?? (securityStatus && ['clean', 'suspicious', 'malicious'].includes(securityStatus) ? securityStatus : 'unknown');
      return {
        ok: env.ok === true,
        decision: str(env.decision) ?? (env.ok === true ? 'pass' : 'fail'),
        verdict,
        reasonCodes,
        isMalwareBlocked: moderation?.isMalwareBlocked === true || securityStatus === 'malicious',
        securityStatus,
      };
    },

    /** Moderation of a skill (the registry reports it for the latest version); null when nothing is flagged. */
    async moderation(slug: string, ownerHandle?: string, signal?: AbortSignal): Promise<ClawhubModeration | null> {
      const s = validateSlug(slug);
      const raw = await http
        .getJson(skillPath(s, '/moderation'), ownerQuery(ownerHandle), { what: `reading moderation of ${s}`, slug: s, signal })
        .catch((e: unknown) => {
          if (isAppError(e) && e.code === 'not_found') return null;
          throw e;
        });
      return raw === null ? null : readModeration(raw);
    },

    /** Downloads exactly `version` as a ZIP into `destFile` (temp + rename), refusing bodies over `maxBytes`. */
    async download(slug: string, version: string, destFile: string, maxBytes: number, ownerHandle?: string, signal?: AbortSignal): Promise<ClawhubDownload> {
      const s = validateSlug(slug);
      const v = validateVersion(version);
      const what = `downloading ${s}@${v}`;
      const res = await http.get(
        'api/v1/download',
        { slug: s, version: v, ...ownerQuery(ownerHandle) },
        { accept: 'application/zip', what, signal, timeoutMs: 300_000 },
      );
      if (!res.ok) {
        const err = await http.fail(res, { what, slug: s });
        await withOwners<never>(s, () => Promise.reject(err), signal);
      }
      const contentType = res.headers.get('content-type') ?? '';
      if (/json/i.test(contentType)) {
        const handoff = obj(await res.json().catch(() => ({})));
        throw new AppError('unsupported_format', `ClawHub hands ${s}@${v} off to GitHub instead of serving an archive.`, { details: { handoff } });
      }
      const declared = Number(res.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > maxBytes) {
        await res.body?.cancel();
        throw tooLarge(maxBytes, declared);
      }
      if (!res.body) throw new AppError('registry_error', `ClawHub sent an empty answer (${what}).`);
      const sink = await streamToFile(Readable.fromWeb(res.body as unknown as NodeReadableStream<Uint8Array>), destFile, maxBytes).catch((e: unknown) => {
        if (isAppError(e)) throw e;
        throw new AppError('registry_error', `The download of ${s}@${v} broke off: ${(e as Error).message}`, { cause: e });
      });
      return { ...sink, contentType };
    },

    /** Which published version has this content hash (ClawHub's resolve algorithm), and the latest version. */
    async resolveHash(slug: string, hash: string, signal?: AbortSignal, ownerHandle?: string): Promise<ClawhubHashResolution> {
      const s = validateSlug(slug);
      const query: Record<string, string> = { slug: s, hash: validateHash(hash), ...(ownerHandle ? { ownerHandle } : {}) };
      const body = obj(await http.getJson('api/v1/resolve', query, { what: `resolving the hash of ${s}`, slug: s, signal }));
      const match = str(obj(body.match).version);
      const latest = typeof body.latestVersion === 'string' ? body.latestVersion : str(obj(body.latestVersion).version);
      return { match: match ? { version: match } : null, latestVersion: latest ? { version: latest } : null };
    },
  };
}

export type ClawhubClient = ReturnType<typeof createClawhubClient>;
