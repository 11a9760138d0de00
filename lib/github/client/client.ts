import { createHash } from 'node:crypto';
import { AppError } from '@/lib/core/errors';
import { trimEndChar } from '@/lib/core/text';
import { fetchWithHops, type HopPolicy, readCapped } from './http';

export const DEFAULT_GITHUB_API = 'https://api.github.com';
export const API_BODY_CAP = 8 * 1024 * 1024;

export function isDefaultGithubApi(apiBase: string): boolean {
  try {
    return new URL(apiBase).origin === new URL(DEFAULT_GITHUB_API).origin;
  } catch {
    return false;
  }
}

/**
 * Token precedence: the stored setting, then GITHUB_TOKEN, then GH_TOKEN. The environment's tokens
 * are github.com tokens: they are used for the default API base only, never for another host.
 */
export function resolveGithubToken(
  setting: string | null | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
  apiBase: string = DEFAULT_GITHUB_API,
): { token: string | null; source: 'setting' | 'GITHUB_TOKEN' | 'GH_TOKEN' | 'none' } {
  if (setting) return { token: setting, source: 'setting' };
  if (!isDefaultGithubApi(apiBase)) return { token: null, source: 'none' };
  if (env.GITHUB_TOKEN) return { token: env.GITHUB_TOKEN, source: 'GITHUB_TOKEN' };
  if (env.GH_TOKEN) return { token: env.GH_TOKEN, source: 'GH_TOKEN' };
  return { token: null, source: 'none' };
}

/** Cache key part that tells tokens apart without storing them. */
export const tokenIdentity = (token: string | null | undefined): string =>
  token ? `sha256:${createHash('sha256').update(token).digest('hex').slice(0, 16)}` : 'anonymous';

export interface CachedResponse {
  etag: string;
  body: unknown;
  link: string | null;
}

/** Where ETags and bodies are kept (the database in production). */
export interface EtagStore {
  get(url: string, tokenId: string): Promise<CachedResponse | null>;
  put(url: string, tokenId: string, entry: CachedResponse): Promise<void>;
  /** A 304 confirmed the stored body is still current. */
  touch(url: string, tokenId: string): Promise<void>;
}

export interface RateLimit {
  resource: string;
  limit: number;
  remaining: number;
  used: number | null;
  resetAt: Date;
}
export interface RateLimitSink {
  record(tokenId: string, r: RateLimit): Promise<void>;
}

export interface GithubClientOptions {
  apiBase?: string;
  token?: string | null;
  userAgent: string;
  extraHosts?: string[];
  etags?: EtagStore;
  rateLimits?: RateLimitSink;
  fetch?: typeof fetch;
  /** Longest wait for a rate limit before failing (default 60 s). */
  maxWaitMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
}

export interface JsonResponse<T> {
  body: T;
  link: string | null;
  /** Served from the ETag cache after a 304. */
  notModified: boolean;
}

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
    );
  });

export function parseRateLimit(h: Headers): RateLimit | null {
  const limit = Number(h.get('x-ratelimit-limit'));
  const remaining = Number(h.get('x-ratelimit-remaining'));
  const reset = Number(h.get('x-ratelimit-reset'));
  if (![limit, remaining, reset].every(Number.isFinite) || h.get('x-ratelimit-limit') === null) return null;
  const used = h.get('x-ratelimit-used');
  return { resource: h.get('x-ratelimit-resource') ?? 'core', limit, remaining, used: used === null ? null : Number(used), resetAt: new Date(reset * 1000) };
}

/** The `rel="next"` URL of a Link header. */
export function nextLink(link: string | null): string | null {
  for (const part of (link ?? '').split(',')) {
    const m = /^<([^>]+)>\s*;\s*rel="?next"?/.exec(part.trim());
    if (m) return m[1];
  }
  return null;
}

const RETRIES = 3;

/** The GitHub REST client: conditional requests, rate limits with backoff, token only to the API host. */
export class GithubClient {
  readonly apiBase: URL;
  readonly tokenId: string;
  private readonly policy: HopPolicy;
  private readonly sleep: NonNullable<GithubClientOptions['sleep']>;
  private readonly now: () => number;

  constructor(private readonly opts: GithubClientOptions) {
    this.apiBase = new URL(`${trimEndChar(opts.apiBase ?? DEFAULT_GITHUB_API, '/')}/`);
    this.tokenId = tokenIdentity(opts.token);
    this.policy = { apiBase: this.apiBase, extraHosts: opts.extraHosts };
    this.sleep = opts.sleep ?? defaultSleep;
    this.now = opts.now ?? Date.now;
  }

  /** An API path (`repos/o/r/releases`) or a full URL on the API host (a Link header's next page). */
  url(pathOrUrl: string): URL {
    const u = /^https?:\/\//.test(pathOrUrl) ? new URL(pathOrUrl) : new URL(pathOrUrl.replace(/^\//, ''), this.apiBase);
    if (u.origin !== this.apiBase.origin) throw new AppError('insecure_redirect', `Refused ${u.origin}: API requests go to ${this.apiBase.origin} only.`);
    return u;
  }

  async getJson<T>(pathOrUrl: string, signal?: AbortSignal, notFound = 'Not found on GitHub'): Promise<JsonResponse<T>> {
    const url = this.url(pathOrUrl);
    const key = url.href;
    const cached = (await this.opts.etags?.get(key, this.tokenId)) ?? null;
    for (let attempt = 1; ; attempt++) {
      const headers: Record<string, string> = {
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': this.opts.userAgent,
      };
      if (cached) headers['if-none-match'] = cached.etag;
      let res: Response;
      try {
        ({ res } = await fetchWithHops(url, this.policy, { headers, token: this.opts.token, signal, fetch: this.opts.fetch }));
      } catch (e) {
        if (e instanceof AppError && e.code === 'upstream_error' && attempt < RETRIES) {
          await this.sleep(500 * 2 ** (attempt - 1), signal);
          continue;
        }
        throw e;
      }
      const rate = parseRateLimit(res.headers);
      if (rate) await this.opts.rateLimits?.record(this.tokenId, rate);
      if (res.status === 304 && cached) {
        await res.body?.cancel();
        await this.opts.etags?.touch(key, this.tokenId);
        return { body: cached.body as T, link: cached.link, notModified: true };
      }
      if (res.ok) {
        const text = (await readCapped(res, API_BODY_CAP, `The GitHub answer for ${url.pathname}`)).toString('utf8');
        let body: T;
        try {
          body = JSON.parse(text) as T;
        } catch {
          throw new AppError('upstream_error', `GitHub sent unreadable JSON for ${url.pathname}.`);
        }
        const etag = res.headers.get('etag');
        const link = res.headers.get('link');
        if (etag) await this.opts.etags?.put(key, this.tokenId, { etag, body, link });
        return { body, link, notModified: false };
      }
      await res.body?.cancel();
      if (res.status === 404) throw new AppError('release_not_found', `${notFound} (${url.pathname}).`, { details: { path: url.pathname } });
      if (res.status === 401)
        throw new AppError('upstream_error', 'GitHub rejected the token (401).', {
          hint: 'Check the GitHub token in Settings, or remove it to use anonymous access.',
        });
      if (res.status === 403 || res.status === 429) {
        const wait = this.rateLimitWait(res, rate, attempt);
        if (wait.ms > (this.opts.maxWaitMs ?? 60_000) || attempt >= RETRIES) {
          throw new AppError('rate_limited', `GitHub's rate limit is exhausted; try again in ${Math.ceil(wait.ms / 1000)} s.`, {
            details: {
              retryAfterSeconds: Math.ceil(wait.ms / 1000),
              kind: wait.kind,
              ...(rate ? { remaining: rate.remaining, resetAt: rate.resetAt.toISOString() } : {}),
            },
            hint: this.opts.token ? undefined : 'Add a GitHub token in Settings: authenticated requests get 5,000 per hour instead of 60.',
          });
        }
        await this.sleep(wait.ms, signal);
        continue;
      }
      if (res.status >= 500 && attempt < RETRIES) {
        await this.sleep(500 * 2 ** (attempt - 1), signal);
        continue;
      }
      throw new AppError('upstream_error', `GitHub answered ${res.status} for ${url.pathname}.`, { details: { status: res.status } });
    }
  }

  /**
   * How long to wait after a 403/429: retry-after first, then the reset time when nothing is
   * left, then (a secondary limit) at least 60 s growing exponentially. A 403 that is no rate limit fails.
   */
  private rateLimitWait(res: Response, rate: RateLimit | null, attempt: number): { ms: number; kind: 'retry-after' | 'reset' | 'secondary' } {
    const retryAfter = Number(res.headers.get('retry-after'));
    if (res.headers.get('retry-after') !== null && Number.isFinite(retryAfter)) return { ms: Math.max(0, retryAfter) * 1000, kind: 'retry-after' };
    if (rate && rate.remaining === 0) return { ms: Math.max(0, rate.resetAt.getTime() - this.now()), kind: 'reset' };
    if (res.status === 403 && !rate)
      throw new AppError('not_allowed', 'GitHub refused the request (403).', { hint: 'The token may lack access to this repository.' });
    return { ms: 60_000 * 2 ** (attempt - 1), kind: 'secondary' };
  }
}
