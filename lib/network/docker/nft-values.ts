// Every value that reaches an nft script or a firewall program's arguments passes one of these
// first: names by allowlist regex, addresses re-parsed and re-printed by ipaddr.js, ports as integers.
import ipaddr from 'ipaddr.js';
import { AppError } from '@/lib/core/errors';

export type Family = 4 | 6;

function refuse(path: string, message: string): never {
  throw new AppError('validation', `${path}: ${message}`, { issues: [{ path, message }] });
}

function show(value: unknown): string {
  return JSON.stringify(typeof value === 'string' ? value.slice(0, 80) : value) ?? String(value);
}

const TABLE = /^skilldock[a-z0-9_]{0,20}$/;
const KEY = /^[a-z0-9]{1,10}$/;
const BRIDGE = /^[a-z0-9]{1,15}$/;
const NETNS = /^[a-z0-9_-]{1,32}$/;

function matching(re: RegExp, what: string) {
  return (value: unknown, path: string): string => {
    if (typeof value !== 'string' || !re.test(value)) refuse(path, `${show(value)} is not ${what}.`);
    return value;
  };
}

export const tableName = matching(TABLE, 'a table name ("skilldock" then up to 20 of a-z, 0-9, _)');
export const networkKey = matching(KEY, 'a network key (1 to 10 of a-z, 0-9)');
export const bridgeName = matching(BRIDGE, 'a bridge name (1 to 15 of a-z, 0-9)');
export const netnsName = matching(NETNS, 'a network namespace name (1 to 32 of a-z, 0-9, _, -)');

export function port(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 65535) {
    refuse(path, `${show(value)} is not a port (an integer from 1 to 65535).`);
  }
  return value;
}

function parseAddress(text: string, family: Family): ipaddr.IPv4 | ipaddr.IPv6 | null {
  if (family === 4) return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text) : null;
  if (!ipaddr.IPv6.isValid(text) || text.includes('%')) return null;
  return ipaddr.IPv6.parse(text);
}

/** A bare address of the family, in its canonical text form. */
export function address(value: unknown, family: Family, path: string): string {
  const parsed = typeof value === 'string' ? parseAddress(value, family) : null;
  if (!parsed) refuse(path, `${show(value)} is not an IPv${family} address.`);
  return parsed.toString();
}

const PREFIX = /^\d{1,3}$/;

/** An address or CIDR of the family, as a CIDR in network form (a bare address gets /32 or /128). */
export function cidr(value: unknown, family: Family, path: string): string {
  const max = family === 4 ? 32 : 128;
  const [addr, len, extra] = typeof value === 'string' ? value.split('/') : [];
  const parsed = addr !== undefined && extra === undefined ? parseAddress(addr, family) : null;
  const bits = len === undefined ? max : PREFIX.test(len) ? Number(len) : Number.NaN;
  if (!parsed || !(bits >= 0 && bits <= max)) refuse(path, `${show(value)} is not an IPv${family} address or CIDR.`);
  const network = family === 4 ? ipaddr.IPv4.networkAddressFromCIDR(`${parsed}/${bits}`) : ipaddr.IPv6.networkAddressFromCIDR(`${parsed}/${bits}`);
  return `${network.toString()}/${bits}`;
}

/** A list of CIDRs of the family, normalised, duplicates removed, order kept. */
export function cidrList(values: unknown, family: Family, path: string): string[] {
  if (!Array.isArray(values)) refuse(path, 'is not a list of addresses.');
  return [...new Set(values.map((v, i) => cidr(v, family, `${path}[${i}]`)))];
}
