/**
 * The SSRF guard of remote skill sources: which URLs may be fetched at all, and which addresses a
 * host may resolve to. Every check runs on the WHATWG-normalised host, so decimal, octal and hex
 * IPv4 forms (http://2130706433/, http://0x7f.1/) are judged as the address they really are.
 */
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from '@/lib/core/errors';
import { cutAt } from '@/lib/core/text';

export interface SsrfPolicy {
  /**
   * `host` or `host:port` patterns an admin allowed (`*.example.com` matches sub-domains). A match
   * also lifts the private-address block for that host (a lab registry on 10.x, a test server on
   * loopback).
   */
  allowedHosts: string[];
  /** When non-empty, only hosts matching these patterns may be fetched at all. */
  hostAllowlist?: string[];
}

/** A URL that passed the guard, with the address the connection must use. */
export interface VettedTarget {
  url: URL;
  /** Host without IPv6 brackets, lower-case. */
  host: string;
  port: number;
  /** The checked address to connect to (the first DNS answer). */
  address: string;
  family: 4 | 6;
  /** Every address the host resolved to (all checked). */
  addresses: string[];
  /** True when an allowedHosts pattern matched (private ranges permitted). */
  adminAllowed: boolean;
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

const defaultPort = (url: URL): number => (url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80);

export const bareHost = (hostname: string): string => hostname.replace(/^\[|\]$/g, '').toLowerCase();

/** The embedded IPv4 (and a label) of IPv4-mapped, IPv4-compatible, SIIT, NAT64 and 6to4 addresses. */
function embeddedIPv4(addr: ipaddr.IPv6): { v4: ipaddr.IPv4; kind: string } | null {
  const p = addr.parts;
  const range = addr.range();
  const low32 = () => new ipaddr.IPv4([p[6] >> 8, p[6] & 0xff, p[7] >> 8, p[7] & 0xff]);
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return { v4: low32(), kind: range };
  if (range === '6to4') return { v4: new ipaddr.IPv4([p[1] >> 8, p[1] & 0xff, p[2] >> 8, p[2] & 0xff]), kind: range };
  // ::a.b.c.d (deprecated IPv4-compatible); :: and ::1 are classified on their own.
  if (p.slice(0, 6).every((x) => x === 0) && (p[6] !== 0 || p[7] > 1)) return { v4: low32(), kind: 'ipv4Compatible' };
  return null;
}

/**
 * Why an address must not be contacted (its ipaddr.js range, e.g. "private", "loopback",
 * "linkLocal"), or null for a public unicast address. Anything that is not plain unicast is
 * refused, including addresses that embed a refused IPv4 address.
 */
export function blockedRange(address: string): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(cutAt(address.replace(/^\[|\]$/g, ''), '%'));
  } catch {
    return 'invalid';
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    const inner = embeddedIPv4(v6);
    if (inner) {
      const innerRange = inner.v4.range();
      return innerRange === 'unicast' ? null : `${inner.kind}:${innerRange}`;
    }
    if (v6.range() === 'teredo') return 'teredo';
  }
  const range = parsed.range();
  return range === 'unicast' ? null : range;
}

interface HostPattern {
  host: string;
  wildcard: boolean;
  port?: number;
}

function parsePattern(raw: string): HostPattern | null {
  let text = raw.trim().toLowerCase();
  if (!text) return null;
  text = cutAt(text.replace(/^[a-z]+:\/\//, ''), '/');
  let host = text;
  let port: number | undefined;
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (v6) {
    host = v6[1];
    port = v6[2] ? Number(v6[2]) : undefined;
  } else if ((text.match(/:/g) ?? []).length === 1) {
    const [h, p] = text.split(':');
    if (!/^\d{1,5}$/.test(p)) return null;
    host = h;
    port = Number(p);
  }
  const wildcard = host.startsWith('*.');
  if (wildcard) return { host: host.slice(2), wildcard, port };
  try {
    // Normalise like a URL host, so "2130706433" and "127.0.0.1" are the same pattern.
    host = bareHost(new URL(`http://${net.isIPv6(host) ? `[${host}]` : host}/`).hostname);
  } catch {
    return null;
  }
  return { host, wildcard, port };
}

/** Whether `host` (bare, lower-case) on `port` matches one of the patterns. */
export function hostMatches(patterns: readonly string[] | undefined, host: string, port: number): boolean {
  for (const raw of patterns ?? []) {
    const p = parsePattern(raw);
    if (!p) continue;
    if (p.port !== undefined && p.port !== port) continue;
    if (p.wildcard ? host.endsWith(`.${p.host}`) : host === p.host) return true;
  }
  return false;
}

/** Parses a URL and applies the checks that need no DNS: scheme, credentials, allowlist. */
export function checkUrlSyntax(raw: string | URL, policy: SsrfPolicy): { url: URL; host: string; port: number; adminAllowed: boolean } {
  let url: URL;
  try {
    url = new URL(String(raw));
  } catch {
    throw new AppError('validation', `"${String(raw).slice(0, 200)}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AppError('ssrf_blocked', `Refused ${url.protocol} URL: only http and https are fetched.`, { details: { url: url.origin } });
  }
  if (url.username || url.password) {
    throw new AppError('ssrf_blocked', 'Refused a URL with credentials in it.', { hint: 'Remove the user:password part of the URL.' });
  }
  const host = bareHost(url.hostname);
  const port = defaultPort(url);
  if (policy.hostAllowlist && policy.hostAllowlist.length > 0 && !hostMatches(policy.hostAllowlist, host, port)) {
    throw new AppError('host_not_allowed', `Host ${host} is not in the allowed host list.`, {
      details: { host, port },
      hint: 'Ask an admin to add the host to the skill source host allowlist.',
    });
  }
  return { url, host, port, adminAllowed: hostMatches(policy.allowedHosts, host, port) };
}

/**
 * Checks a URL without fetching it: syntax, allowlist, then the addresses its host resolves to
 * (every answer must be public unless an admin allowed the host). Routes use it to refuse early;
 * fetchers connect to the returned `address` so a second DNS answer cannot swap it.
 */
export async function checkUrlTarget(raw: string | URL, policy: SsrfPolicy, resolve: Resolver = systemResolver): Promise<VettedTarget> {
  const { url, host, port, adminAllowed } = checkUrlSyntax(raw, policy);
  let answers: { address: string; family: number }[];
  if (net.isIP(host)) answers = [{ address: host, family: net.isIP(host) }];
  else {
    try {
      answers = await resolve(host);
    } catch (e) {
      throw new AppError('fetch_failed', `Could not resolve ${host}: ${(e as Error).message}`, { details: { host } });
    }
    if (answers.length === 0) throw new AppError('fetch_failed', `${host} has no address.`, { details: { host } });
  }
  if (!adminAllowed) {
    for (const a of answers) {
      const range = blockedRange(a.address);
      if (range) {
        throw new AppError('ssrf_blocked', `Refused ${host}: it resolves to ${a.address} (${range}), a non-public address.`, {
          details: { host, address: a.address, range },
          hint: 'An admin can allow this host explicitly if it is a trusted internal source.',
        });
      }
    }
  }
  const first = answers[0];
  return {
    url,
    host,
    port,
    address: first.address,
    family: first.family === 6 ? 6 : 4,
    addresses: answers.map((a) => a.address),
    adminAllowed,
  };
}
