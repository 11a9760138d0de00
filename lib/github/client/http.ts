import net from 'node:net';
import { AppError } from '@/lib/core/errors';
import { secretMayTravelTo } from '@/lib/core/loopback';

/** Hosts a GitHub download may redirect to, besides the API host and configured extras. */
export const GITHUB_HOSTS = [
  'github.com',
  'api.github.com',
  'objects.githubusercontent.com',
  'objects-origin.githubusercontent.com',
  'release-assets.githubusercontent.com',
  'codeload.github.com',
];
export const MAX_REDIRECTS = 5;

export interface HopPolicy {
  /** The API base (https://api.github.com or an Enterprise/test URL): its host alone receives the token. */
  apiBase: URL;
  /** Extra allowed hosts (Enterprise upload hosts, mirrors). */
  extraHosts?: readonly string[];
}

/**
 * Checks one hop: HTTPS, an allowed host, and no IP literal unless it is the configured API host.
 * Plain HTTP is accepted only when the admin configured a plain-HTTP API base (a lab mirror or a
 * test server), and then only for the allowed hosts.
 */
export function checkHop(url: URL, policy: HopPolicy): void {
  const labMode = policy.apiBase.protocol === 'http:';
  const allowed = new Set([...GITHUB_HOSTS, policy.apiBase.hostname, ...(policy.extraHosts ?? [])].map((h) => h.toLowerCase()));
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const fail = (why: string) => {
    throw new AppError('insecure_redirect', `Refused ${url.origin}: ${why}.`, { details: { url: url.origin } });
  };
  if (url.username || url.password) fail('credentials in the URL');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && labMode)) fail('not HTTPS');
  if (!allowed.has(host)) fail(`host ${host} is not GitHub (allowed: ${[...allowed].join(', ')})`);
  if (net.isIP(host) && host !== policy.apiBase.hostname.replace(/^\[|\]$/g, '')) fail('an IP address instead of a host name');
}

/** The Authorization header goes to the API host (same scheme, host and port) and nowhere else, never over plain HTTP except to loopback. */
export const sendsToken = (url: URL, policy: HopPolicy): boolean => url.origin === policy.apiBase.origin && secretMayTravelTo(url);

export interface HopRequest {
  headers: Record<string, string>;
  token?: string | null;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

/** Fetches with redirects followed by hand: every hop re-checked, the token stripped off the API host, at most 5 hops. */
export async function fetchWithHops(start: URL, policy: HopPolicy, req: HopRequest): Promise<{ res: Response; url: URL }> {
  let url = start;
  for (let hop = 0; ; hop++) {
    checkHop(url, policy);
    const headers = { ...req.headers };
    if (req.token && sendsToken(url, policy)) headers.authorization = `Bearer ${req.token}`;
    let res: Response;
    try {
      res = await (req.fetch ?? fetch)(url, { headers, redirect: 'manual', signal: req.signal });
    } catch (e) {
      if (req.signal?.aborted) throw e;
      throw new AppError('upstream_error', `Could not reach ${url.host}: ${(e as Error).message}.`, { details: { host: url.host } });
    }
    if (![301, 302, 303, 307, 308].includes(res.status)) return { res, url };
    const location = res.headers.get('location');
    await res.body?.cancel();
    if (!location) throw new AppError('upstream_error', `${url.host} answered ${res.status} without a Location.`);
    if (hop + 1 > MAX_REDIRECTS) throw new AppError('insecure_redirect', `More than ${MAX_REDIRECTS} redirects from ${start.host}.`);
    url = new URL(location, url);
  }
}

/** Reads a response body up to a byte cap. */
export async function readCapped(res: Response, maxBytes: number, what: string): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new AppError('upstream_too_large', `${what} is ${declared} bytes; the limit is ${maxBytes}.`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = res.body?.getReader();
  for (;;) {
    const { done, value } = reader ? await reader.read() : { done: true, value: undefined };
    if (done || !value) break;
    total += value.length;
    if (total > maxBytes) {
      await reader?.cancel();
      throw new AppError('upstream_too_large', `${what} exceeds ${maxBytes} bytes.`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}
