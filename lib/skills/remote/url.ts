/**
 * Fetches one URL into a file behind the SSRF guard. Redirects are followed by hand and every hop
 * is checked again; the socket connects to the very address that was checked (a custom `lookup`),
 * so DNS rebinding between check and connect cannot swap it for an internal one.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { AppError } from '@/lib/core/errors';
import { streamToFile, tooLarge } from './file-sink';
import { checkUrlTarget, type Resolver, type SsrfPolicy, type VettedTarget } from './ssrf';

export interface FetchPolicy extends SsrfPolicy {
  maxBytes: number;
  /** Whole fetch, all hops included; default 60 s. */
  timeoutMs?: number;
  /** Default 5. */
  maxRedirects?: number;
}

export interface FetchedFile {
  finalUrl: string;
  contentType: string;
  bytes: number;
  sha256: string;
  /** The answer's validators, for a later conditional request. */
  etag?: string;
  lastModified?: string;
}

/** Validators of a copy already held: a 304 answer to them means the resource did not change. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

// process-wide: a constant table, never written
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A `lookup` that answers with the vetted address only, whatever the name. */
function pinnedLookup(target: VettedTarget): LookupFunction {
  return ((_host: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (opts?.all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

const HEADER_VALUE = /^[\x20-\x7e]{1,512}$/;

function conditionalHeaders(v: Validators | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (v?.etag && HEADER_VALUE.test(v.etag)) out['if-none-match'] = v.etag;
  if (v?.lastModified && HEADER_VALUE.test(v.lastModified)) out['if-modified-since'] = v.lastModified;
  return out;
}

const headerOf = (res: http.IncomingMessage, name: string) => {
  const v = res.headers[name];
  return typeof v === 'string' && HEADER_VALUE.test(v) ? v : undefined;
};

function request(target: VettedTarget, signal: AbortSignal, extra: Record<string, string>): Promise<http.IncomingMessage> {
  const mod = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(
      {
        protocol: target.url.protocol,
        host: target.host,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        method: 'GET',
        agent: false,
        lookup: pinnedLookup(target),
        servername: target.url.protocol === 'https:' ? target.host : undefined,
        headers: { 'user-agent': 'skilldock', accept: '*/*', 'accept-encoding': 'identity', ...extra },
        signal,
      },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
}

function failure(e: unknown, signal: AbortSignal, timedOut: () => boolean, url: URL): AppError {
  if (e instanceof AppError) return e;
  if (timedOut()) return new AppError('fetch_failed', `Fetching ${url.origin} timed out.`, { details: { url: url.href } });
  if (signal.aborted) return new AppError('fetch_failed', 'The download was cancelled.', { details: { url: url.href } });
  return new AppError('fetch_failed', `Fetching ${url.origin} failed: ${(e as Error).message}`, { details: { url: url.href }, cause: e });
}

/**
 * Downloads `url` into `destFile` (temp + rename), refusing private addresses, hosts outside the
 * allowlist, bodies over `maxBytes` (declared or streamed) and more than `maxRedirects` hops.
 */
export async function fetchToFile(url: string, destFile: string, policy: FetchPolicy, signal?: AbortSignal, resolve?: Resolver): Promise<FetchedFile> {
  const got = await fetchIfChanged(url, destFile, policy, undefined, signal, resolve);
  if ('notModified' in got) throw new AppError('fetch_failed', `${url} answered 304 to a request that was not conditional.`);
  return got;
}

/**
 * Like fetchToFile, sent with If-None-Match / If-Modified-Since from `held`: a 304 answer is
 * `{notModified: true}` (nothing written), so an unchanged source costs one request and no body.
 */
export async function fetchIfChanged(
  url: string,
  destFile: string,
  policy: FetchPolicy,
  held: Validators | undefined,
  signal?: AbortSignal,
  resolve?: Resolver,
): Promise<FetchedFile | { notModified: true; finalUrl: string }> {
  const extra = conditionalHeaders(held);
  const maxRedirects = policy.maxRedirects ?? 5;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, policy.timeoutMs ?? 60_000);
  const onAbort = () => controller.abort();
  if (signal?.aborted) controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let current = new URL(url);
  try {
    for (let hop = 0; ; hop++) {
      const target = await checkUrlTarget(current, policy, resolve);
      current = target.url;
      if (controller.signal.aborted) throw new Error('aborted');
      const res = await request(target, controller.signal, extra);
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        res.resume();
        const location = res.headers.location;
        if (!location) throw new AppError('fetch_failed', `${current.origin} answered ${status} without a Location.`);
        if (hop >= maxRedirects) {
          throw new AppError('fetch_failed', `Too many redirects (more than ${maxRedirects}).`, { details: { url: current.href, maxRedirects } });
        }
        current = new URL(location, current);
        continue;
      }
      if (status === 304 && Object.keys(extra).length > 0) {
        res.resume();
        return { notModified: true, finalUrl: current.href };
      }
      if (status < 200 || status > 299) {
        res.resume();
        throw new AppError('fetch_failed', `${current.href} answered HTTP ${status}.`, { details: { url: current.href, status } });
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > policy.maxBytes) {
        res.destroy();
        throw tooLarge(policy.maxBytes, declared);
      }
      const sink = await streamToFile(res, destFile, policy.maxBytes);
      const validators = { etag: headerOf(res, 'etag'), lastModified: headerOf(res, 'last-modified') };
      return { finalUrl: current.href, contentType: String(res.headers['content-type'] ?? ''), ...sink, ...validators };
    }
  } catch (e) {
    throw failure(e, controller.signal, () => timedOut, current);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
