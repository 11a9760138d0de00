// Strict address parsing and range lookups shared by the validator, the compiler and the evaluator.
// IPv4 is dotted-quad decimal only: the decimal, octal and short forms resolvers also accept
// (2852039166, 0251.0376.0251.0376, 1.2.3) name the same hosts under other spellings.
import ipaddr from 'ipaddr.js';
import { ALWAYS_BLOCKED_V4, ALWAYS_BLOCKED_V6, type NamedRange, PRIVATE_V4, PRIVATE_V6 } from './ranges';

export type Addr = ipaddr.IPv4 | ipaddr.IPv6;
export type Cidr = [Addr, number];

const DOTTED_QUAD = /^(?:0|[1-9]\d{0,2})(?:\.(?:0|[1-9]\d{0,2})){3}$/;
const DIGITS_AND_DOTS = /^[\d.]+$/;

export const isDigitsAndDots = (s: string): boolean => DIGITS_AND_DOTS.test(s);

/** A dotted-quad IPv4 (each part 0–255, no leading zeros) or an IPv6 without a zone; else null. */
export function parseIp(s: string): Addr | null {
  if (DOTTED_QUAD.test(s)) return s.split('.').every((p) => Number(p) <= 255) ? ipaddr.IPv4.parse(s) : null;
  if (!s.includes(':') || s.includes('%') || !ipaddr.IPv6.isValid(s)) return null;
  return ipaddr.IPv6.parse(s);
}

/** An IPv4-mapped IPv6 address judged as the IPv4 it carries; anything else as it is. */
export function unmap(a: Addr): Addr {
  return a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress() ? (a as ipaddr.IPv6).toIPv4Address() : a;
}

export const isMapped = (a: Addr): boolean => a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress();

const MAPPED: Cidr = [ipaddr.IPv6.parse('::ffff:0:0'), 96];

/** Whether a v6 CIDR lies inside ::ffff:0:0/96 (an IPv4 range spelled as IPv6). */
export const isMappedCidr = (c: Cidr): boolean => c[0].kind() === 'ipv6' && cidrWithin(c, MAPPED);

export const familyOf = (a: Addr): 4 | 6 => (a.kind() === 'ipv4' ? 4 : 6);

/** The CIDR in network form, e.g. 10.0.0.0/8 or 2001:db8::/32. */
export function cidrText(a: Addr, bits: number): string {
  const net = a.kind() === 'ipv4' ? ipaddr.IPv4.networkAddressFromCIDR(`${a}/${bits}`) : ipaddr.IPv6.networkAddressFromCIDR(`${a}/${bits}`);
  return `${net.toString()}/${bits}`;
}

/** Parses a normalised or raw CIDR text ("10.0.0.0/8"); null when malformed. */
export function parseCidr(s: string): Cidr | null {
  const slash = s.indexOf('/');
  if (slash < 0) {
    const a = parseIp(s);
    return a ? [a, a.kind() === 'ipv4' ? 32 : 128] : null;
  }
  const a = parseIp(s.slice(0, slash));
  const bitsText = s.slice(slash + 1);
  if (!a || !/^\d{1,3}$/.test(bitsText)) return null;
  const bits = Number(bitsText);
  if (bits > (a.kind() === 'ipv4' ? 32 : 128)) return null;
  return [a, bits];
}

export function inCidr(a: Addr, c: Cidr): boolean {
  return a.kind() === c[0].kind() && a.match(c[0] as never, c[1]);
}

/** Whether CIDR `inner` lies entirely inside `outer`. */
export function cidrWithin(inner: Cidr, outer: Cidr): boolean {
  return inner[0].kind() === outer[0].kind() && inner[1] >= outer[1] && inner[0].match(outer[0] as never, outer[1]);
}

export const cidrOverlaps = (x: Cidr, y: Cidr): boolean => cidrWithin(x, y) || cidrWithin(y, x);

interface ParsedRange extends NamedRange {
  parsed: Cidr;
}
const parsedRanges = (list: readonly NamedRange[]): ParsedRange[] => list.map((r) => ({ ...r, parsed: parseCidr(r.cidr)! }));
const BLOCKED = [...parsedRanges(ALWAYS_BLOCKED_V4), ...parsedRanges(ALWAYS_BLOCKED_V6)];
const PRIVATE = [...parsedRanges(PRIVATE_V4), ...parsedRanges(PRIVATE_V6)];

/** The always-blocked range an address lies in (v4-mapped addresses judged as their IPv4). */
export const blockedRange = (a: Addr): NamedRange | undefined => BLOCKED.find((r) => inCidr(unmap(a), r.parsed));
export const privateRange = (a: Addr): NamedRange | undefined => PRIVATE.find((r) => inCidr(unmap(a), r.parsed));

/** The always-blocked range that contains the whole CIDR (opening it would open only blocked addresses). */
export const blockedRangeContaining = (c: Cidr): NamedRange | undefined => BLOCKED.find((r) => cidrWithin(c, r.parsed));
/** Always-blocked ranges inside a wider CIDR (they stay blocked). */
export const blockedRangesInside = (c: Cidr): NamedRange[] => BLOCKED.filter((r) => cidrOverlaps(r.parsed, c) && !cidrWithin(c, r.parsed));
