// Host names as the egress proxy reads them from SNI, Host headers and request targets. Pure and
// bounded: character loops, no regexes over what a sandbox sends.
import { isIP } from 'node:net';

export interface HostPort {
  host: string;
  port: number;
}

const isLabelChar = (c: number) => (c >= 0x61 && c <= 0x7a) /* a-z */ || (c >= 0x30 && c <= 0x39) /* 0-9 */ || c === 0x2d /* - */ || c === 0x5f /* _ */;
const isLetter = (c: number) => c >= 0x61 && c <= 0x7a;

/**
 * A DNS name (lower-case, no trailing dot) or an IP literal (IPv6 without brackets); null for
 * anything else. The last label must start with a letter: no real top-level domain starts with a
 * digit, and names like `2852039166` or `0x7f.1` are read as IPv4 addresses by some resolvers.
 */
export function normaliseHost(raw: string): string | null {
  if (raw.length === 0 || raw.length > 255) return null;
  let h = raw.toLowerCase();
  if (h.startsWith('[')) {
    if (!h.endsWith(']')) return null;
    h = h.slice(1, -1);
    return isIP(h) === 6 ? h : null;
  }
  if (isIP(h) !== 0) return h;
  if (h.endsWith('.')) h = h.slice(0, -1);
  if (h.length === 0 || h.length > 253) return null;
  const labels = h.split('.');
  for (const label of labels) {
    if (label.length < 1 || label.length > 63) return null;
    if (label.charCodeAt(0) === 0x2d || label.charCodeAt(label.length - 1) === 0x2d) return null;
    for (let i = 0; i < label.length; i++) if (!isLabelChar(label.charCodeAt(i))) return null;
  }
  return isLetter(labels[labels.length - 1].charCodeAt(0)) ? h : null;
}

/** Port text of 1 to 5 digits in 1..65535, or null. */
export function parsePort(text: string): number | null {
  if (text.length < 1 || text.length > 5) return null;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return null;
    n = n * 10 + (c - 0x30);
  }
  return n >= 1 && n <= 65535 ? n : null;
}

/**
 * `host`, `host:port`, `[v6]` or `[v6]:port` → host and port; `defaultPort` null means the port
 * is required (CONNECT). A bare IPv6 address (colons without brackets) is refused.
 */
export function parseAuthority(text: string, defaultPort: number | null): HostPort | null {
  let hostText: string;
  let rest: string;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return null;
    hostText = text.slice(0, close + 1);
    rest = text.slice(close + 1);
  } else {
    const colon = text.indexOf(':');
    if (colon >= 0 && text.indexOf(':', colon + 1) >= 0) return null;
    hostText = colon < 0 ? text : text.slice(0, colon);
    rest = colon < 0 ? '' : text.slice(colon);
  }
  let port: number | null = defaultPort;
  if (rest !== '') {
    if (!rest.startsWith(':')) return null;
    port = parsePort(rest.slice(1));
  }
  const host = normaliseHost(hostText);
  return host && port ? { host, port } : null;
}
