// One allowOut/denyOut entry: an IP or CIDR (normalised to network form) or a domain (lower-case,
// no trailing dot, `*.` for subdomains only), or the reason it is refused, worded for a person.
import { type Cidr, cidrText, isDigitsAndDots, isMappedCidr, parseIp } from './addr';

export type Entry =
  | { ok: true; kind: 'cidr'; family: 4 | 6; value: string; cidr: Cidr }
  | { ok: true; kind: 'domain'; value: string; wildcard: boolean }
  | { ok: false; reason: string };

/** The deny-all entries; either one in denyOut makes the whole policy default-deny, both families. */
export const DENY_ALL_V4 = '0.0.0.0/0';
export const DENY_ALL_V6 = '::/0';

/** Whether a denyOut list (normalised) holds a deny of everything, in either family. */
export const deniesAll = (denyOut: readonly string[]): boolean => denyOut.includes(DENY_ALL_V4) || denyOut.includes(DENY_ALL_V6);

type Refused = { ok: false; reason: string };
const refuse = (reason: string): Refused => ({ ok: false, reason });

const SCHEME = /^[a-z][a-z0-9+.-]{0,30}:\/\//i;
const LABEL_CHARS = /^[a-z0-9-]+$/;
// A last label that is a number (decimal or 0x-hex) makes resolvers read the name as an IPv4 address.
const NUMERIC_LABEL = /^(?:\d+|0x[0-9a-f]*)$/;
const WHITESPACE = /\s/;
const PREFIX = /^\d{1,3}$/;

const HOST_CHARS = /^[a-z0-9.-]+$/i;

/** A host a resolver would read as an IPv4 address in a non-dotted-quad spelling (2852039166, 0x7f.1, 1.2.3). */
export function isNumericTrick(host: string): boolean {
  const h = host.endsWith('.') ? host.slice(0, -1) : host;
  return NUMERIC_LABEL.test(h.slice(h.lastIndexOf('.') + 1).toLowerCase());
}

/** Characters a host name may hold at all (single-label names such as "db" included). */
export const hostCharsOk = (host: string): boolean => HOST_CHARS.test(host);

/** The host part of "host:port/path?query" (userinfo dropped), to suggest what to enter instead. */
export function hostHint(s: string): string {
  let rest = s;
  for (const c of ['/', '?', '#']) if (rest.includes(c)) rest = rest.slice(0, rest.indexOf(c));
  if (rest.includes('@')) rest = rest.slice(rest.lastIndexOf('@') + 1);
  if (rest.startsWith('[') && rest.includes(']')) return rest.slice(1, rest.indexOf(']'));
  const colons = rest.split(':').length - 1;
  return colons === 1 ? rest.slice(0, rest.indexOf(':')) : rest;
}

/** A domain name (optionally `*.`-prefixed when `wildcard` is allowed): the normalised name or why not. */
export function checkDomain(input: string, allowWildcard = true): { ok: true; value: string; wildcard: boolean } | Refused {
  let name = input.toLowerCase();
  if (name.endsWith('.')) name = name.slice(0, -1);
  const wildcard = name.startsWith('*.');
  const body = wildcard ? name.slice(2) : name;
  if (body.includes('*')) return refuse('"*" is allowed only as a leading "*." (subdomains)');
  if (wildcard && !allowWildcard) return refuse('a wildcard is not allowed here; enter one host name');
  if (body.length > 253) return refuse('a name is longer than 253 characters');
  if (body === '' || body.startsWith('.') || body.endsWith('.') || body.includes('..')) return refuse('leading, trailing or double dots are not allowed');
  const labels = body.split('.');
  if (labels.length < 2) return refuse(`a domain needs at least two labels (${wildcard ? '*.example.com' : 'example.com'})`);
  for (const label of labels) {
    if (label.length > 63) return refuse(`the label "${label.slice(0, 16)}…" is longer than 63 characters`);
    if (!LABEL_CHARS.test(label)) return refuse(`a label may hold only a–z, 0–9 and "-" ("${label.slice(0, 63)}")`);
    if (label.startsWith('-') || label.endsWith('-')) return refuse(`a label cannot start or end with "-" ("${label}")`);
  }
  if (NUMERIC_LABEL.test(labels[labels.length - 1])) return refuse('the last label is a number, which resolvers read as an IP address');
  return { ok: true, value: wildcard ? `*.${body}` : body, wildcard };
}

function checkCidr(ipText: string, bitsText: string | null): Entry {
  if (isDigitsAndDots(ipText) && !parseIp(ipText)) {
    return refuse('only digits and dots but not a dotted-quad IPv4 address (a malformed IP); write four decimal parts, e.g. 10.0.0.1');
  }
  const ip = parseIp(ipText);
  if (!ip) return refuse('not a valid IP address');
  const v4 = ip.kind() === 'ipv4';
  const max = v4 ? 32 : 128;
  if (bitsText !== null && !PREFIX.test(bitsText)) return refuse(`the prefix length after "/" must be a number from 0 to ${max}`);
  const bits = bitsText === null ? max : Number(bitsText);
  if (bits > max) return refuse(`the prefix length /${bits} is out of range for ${v4 ? 'IPv4' : 'IPv6'} (0–${max})`);
  if (!v4 && isMappedCidr([ip, bits])) {
    return refuse('IPv4-mapped IPv6 addresses (::ffff:0:0/96) are not accepted; enter the IPv4 address or range itself');
  }
  const cidr: Cidr = [ip, bits];
  return { ok: true, kind: 'cidr', family: v4 ? 4 : 6, value: cidrText(ip, bits), cidr };
}

/** Classifies and normalises one list entry. */
export function classifyEntry(raw: string): Entry {
  const s = raw.trim();
  if (s === '') return refuse('an entry is empty');
  if (WHITESPACE.test(s)) return refuse('whitespace is not allowed inside an entry');
  // A pasted URL stands for its host: the scheme, user information, port and path are dropped.
  const scheme = SCHEME.exec(s);
  if (scheme) {
    const host = hostHint(s.slice(scheme[0].length));
    if (host === '' || SCHEME.test(host)) return refuse('a URL without a host name');
    return classifyEntry(host);
  }
  if (s.includes('@')) return refuse(`user information ("…@") is not allowed; enter the host name (${hostHint(s)})`);
  if (s.startsWith('[')) return refuse(`brackets and ports are not allowed; enter the IPv6 address alone (${hostHint(s)})`);
  const slash = s.indexOf('/');
  if (slash >= 0) {
    const left = s.slice(0, slash);
    if (parseIp(left) || isDigitsAndDots(left) || (left.includes(':') && parseIp(left.split('%')[0]))) {
      if (left.includes('%')) return refuse('a zone id ("%…") is not allowed');
      return checkCidr(left, s.slice(slash + 1));
    }
    return refuse(`a path is not allowed; enter the host name (${hostHint(left)})`);
  }
  if (s.includes(':')) {
    if (parseIp(s)) return checkCidr(s, null);
    if (s.includes('%') && parseIp(s.slice(0, s.indexOf('%')))) return refuse('a zone id ("%…") is not allowed');
    if (s.split(':').length > 2) return refuse('not a valid IPv6 address');
    return refuse(`a port is not allowed; enter the host name or address alone (${hostHint(s)})`);
  }
  if (isDigitsAndDots(s)) return checkCidr(s, null);
  const d = checkDomain(s);
  return d.ok ? { ok: true, kind: 'domain', value: d.value, wildcard: d.wildcard } : d;
}
