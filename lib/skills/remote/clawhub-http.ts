/**
 * HTTP plumbing of the ClawHub client: requests only to the configured base origin (redirects to
 * another origin are refused), and registry answers mapped to AppError codes. Registry error
 * bodies are text/plain; the ambiguous-slug 409 may be JSON (`{code, matches:[{ownerHandle}]}`)
 * or text naming `@owner/slug` refs, so its owners are parsed defensively from either.
 */
import { AppError } from '@/lib/core/errors';

export interface RegistryHttpOptions {
  baseUrl: string;
  token?: string;
  fetchImpl?: typeof fetch;
  /** Per request; default 30 s. */
  timeoutMs?: number;
}

export type Query = Record<string, string | number | undefined>;

const MAX_REDIRECTS = 5;
const MAX_ERROR_BODY = 64 * 1024;

/** Seconds to wait from Retry-After (seconds or HTTP date), else RateLimit-Reset; undefined when absent. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const raw = headers.get('retry-after')?.trim();
  if (raw) {
    if (/^\d+$/.test(raw)) return Number(raw);
    const at = Date.parse(raw);
    if (Number.isFinite(at)) return Math.max(0, Math.ceil((at - now) / 1000));
  }
  const reset = headers.get('ratelimit-reset')?.trim();
  return reset && /^\d+$/.test(reset) ? Number(reset) : undefined;
}

const OWNER_IN_TEXT = /@([A-Za-z0-9][A-Za-z0-9_-]{0,38})\//g;

/** Owner handles listed by an AMBIGUOUS_SKILL_SLUG answer (JSON or text), de-duplicated. */
export function parseAmbiguousOwners(body: string): string[] {
  const owners: string[] = [];
  const add = (v: unknown) => {
    const h = typeof v === 'string' ? v.replace(/^@/, '') : '';
    if (/^[A-Za-z0-9][A-Za-z0-9_-]{0,38}$/.test(h) && !owners.includes(h)) owners.push(h);
  };
  const trimmed = body.trim();
  if (trimmed.startsWith('{')) {
    try {
      const json = JSON.parse(trimmed) as Record<string, unknown>;
      for (const list of [json.matches, json.owners, json.candidates]) {
        if (!Array.isArray(list)) continue;
        for (const m of list) {
          if (typeof m === 'string') add(m);
          else if (m && typeof m === 'object') {
            const o = m as Record<string, unknown>;
            add(o.ownerHandle ?? o.handle ?? (o.owner as Record<string, unknown> | undefined)?.handle ?? o.owner);
          }
        }
      }
      if (owners.length > 0) return owners;
    } catch {
      /* fall through to the text form */
    }
  }
  for (const m of trimmed.matchAll(OWNER_IN_TEXT)) add(m[1]);
  return owners;
}

export const isAmbiguousBody = (status: number, body: string) => status === 409 && /AMBIGUOUS_SKILL_SLUG|ambiguous/i.test(body);

/** Maps a failed registry answer to a AppError. */
export function registryError(status: number, body: string, headers: Headers, context: { what: string; slug?: string }): AppError {
  const text = body
    .replace(/[^\x20-\x7e\n\t]/g, '')
    .trim()
    .slice(0, 500);
  const details = { status, ...(context.slug ? { slug: context.slug } : {}), ...(text ? { body: text } : {}) };
  const said = text ? `: ${text.split('\n')[0]}` : '';
  if (status === 429) {
    const retry = retryAfterSeconds(headers);
    return new AppError('rate_limited', `ClawHub rate limit reached while ${context.what}.`, {
      details: { ...details, ...(retry !== undefined ? { retryAfterSeconds: retry } : {}) },
      hint: retry !== undefined ? `Try again in ${retry} seconds.` : 'Try again later.',
    });
  }
  if (isAmbiguousBody(status, body)) {
    const owners = parseAmbiguousOwners(body);
    return new AppError('ambiguous_slug', `Several publishers have a skill "${context.slug ?? ''}"; pick an owner.`, {
      details: { ...details, owners, refs: owners.map((o) => `@${o}/${context.slug ?? ''}`) },
      hint: 'Choose the publisher and retry as @owner/slug.',
    });
  }
  if (status === 404) return new AppError('not_found', `ClawHub has no such skill or version (${context.what})${said}.`, { details });
  if (status === 410) {
    return new AppError('not_found', `The skill version was deleted or yanked on ClawHub (${context.what})${said}.`, { details: { ...details, gone: true } });
  }
  if (status === 403)
    return new AppError('registry_blocked', `ClawHub refused ${context.what}${said}.`, {
      details,
      hint: 'The registry blocks this skill (for example as malicious).',
    });
  if (status === 400) return new AppError('validation', `ClawHub rejected the request (${context.what})${said}.`, { details });
  return new AppError('registry_error', `ClawHub answered HTTP ${status} while ${context.what}${said}.`, {
    details,
    ...(status === 401 ? { hint: 'Check the ClawHub API token.' } : {}),
  });
}

export interface RegistryHttp {
  readonly base: URL;
  /** GET `path` (under the base) with `query`; follows same-origin redirects only. */
  get(
    path: string,
    query: Query,
    opts: { accept: string; what: string; signal?: AbortSignal; timeoutMs?: number; headers?: Record<string, string> },
  ): Promise<Response>;
  /** GET and parse JSON; non-2xx answers become SkillErrors. */
  getJson(path: string, query: Query, ctx: { what: string; slug?: string; signal?: AbortSignal }): Promise<unknown>;
  /** Reads a failed answer's body (capped) and maps it. */
  fail(res: Response, ctx: { what: string; slug?: string }): Promise<AppError>;
}

export function createRegistryHttp(opts: RegistryHttpOptions): RegistryHttp {
  const base = new URL(opts.baseUrl.endsWith('/') ? opts.baseUrl : `${opts.baseUrl}/`);
  if (base.protocol !== 'https:' && base.protocol !== 'http:') throw new AppError('validation', 'The ClawHub base URL must be http(s).');
  const doFetch = opts.fetchImpl ?? fetch;
  const headers: Record<string, string> = { 'user-agent': 'skilldock' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;

  const http: RegistryHttp = {
    base,
    async get(path, query, { accept, what, signal, timeoutMs, headers: extra }) {
      let url = new URL(path.replace(/^\//, ''), base);
      for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
      const timeout = AbortSignal.timeout(timeoutMs ?? opts.timeoutMs ?? 30_000);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      for (let hop = 0; ; hop++) {
        let res: Response;
        try {
          res = await doFetch(url, { headers: { ...headers, ...extra, accept }, redirect: 'manual', signal: combined });
        } catch (e) {
          const why = timeout.aborted ? 'timed out' : signal?.aborted ? 'was cancelled' : `failed: ${(e as Error).message}`;
          throw new AppError('registry_error', `Contacting ClawHub (${what}) ${why}.`, { details: { url: url.origin }, cause: e });
        }
        // 304 answers a conditional request (the caller sent the validators): not a redirect.
        if (res.status < 300 || res.status > 399 || res.status === 304) return res;
        await res.body?.cancel();
        const location = res.headers.get('location');
        if (!location) throw new AppError('registry_error', `ClawHub answered ${res.status} without a Location (${what}).`);
        const next = new URL(location, url);
        if (next.origin !== base.origin) {
          throw new AppError('registry_error', `Refused a redirect from ClawHub to another origin (${next.origin}).`, { details: { location: next.origin } });
        }
        if (hop >= MAX_REDIRECTS) throw new AppError('registry_error', `Too many redirects from ClawHub (${what}).`);
        url = next;
      }
    },
    async getJson(path, query, ctx) {
      const res = await http.get(path, query, { accept: 'application/json', what: ctx.what, signal: ctx.signal });
      if (!res.ok) throw await http.fail(res, ctx);
      try {
        return await res.json();
      } catch {
        throw new AppError('registry_error', `ClawHub sent an answer that is not JSON (${ctx.what}).`);
      }
    },
    async fail(res, ctx) {
      let body = '';
      try {
        body = (await res.text()).slice(0, MAX_ERROR_BODY);
      } catch {
        /* the status alone still says what happened */
      }
      return registryError(res.status, body, res.headers, ctx);
    },
  };
  return http;
}
