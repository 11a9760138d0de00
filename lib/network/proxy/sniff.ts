// Reads the first bytes of a connection to learn where it wants to go: the SNI of a TLS
// ClientHello, or the target and Host of an HTTP request. Pure and bounded: every length is checked
// against the buffer, at most MAX_PEEK bytes are looked at, and no regex runs over the input.
import { normaliseHost, parseAuthority } from './host';

/** The most bytes the proxy buffers before it knows the destination. */
export const MAX_PEEK = 16 * 1024;
/** Header lines of one HTTP request head, request line included. */
export const MAX_HEADER_LINES = 100;
const MAX_METHOD = 16;

export type Sniffed =
  | { kind: 'tls'; host: string }
  | {
      kind: 'http';
      via: 'host' | 'connect' | 'absolute';
      method: string;
      target: string;
      host: string;
      port: number;
      /** Bytes of the request head, the blank line included (a CONNECT's head is not forwarded). */
      headEnd: number;
    }
  | { kind: 'more' }
  | { kind: 'unknown'; reason: string; http: boolean };

const unknown = (reason: string, http = false): Sniffed => ({ kind: 'unknown', reason, http });

export function sniff(buf: Buffer): Sniffed {
  if (buf.length === 0) return { kind: 'more' };
  if (buf[0] === 0x16) return sniffTls(buf);
  if (buf[0] >= 0x41 && buf[0] <= 0x5a) return sniffHttp(buf);
  return unknown('neither a TLS ClientHello nor an HTTP request');
}

// TLS: record header (type 22, version, length), handshake header (type 1 = ClientHello, 24-bit
// length), then the ClientHello body up to its extensions.
function sniffTls(buf: Buffer): Sniffed {
  if (buf.length < 5) return { kind: 'more' };
  if (buf[1] !== 0x03) return unknown('not a TLS record');
  const recordLen = buf.readUInt16BE(3);
  if (recordLen < 4 || recordLen > 16384) return unknown('bad TLS record length');
  if (5 + recordLen > MAX_PEEK) return unknown('ClientHello too large');
  if (buf.length < 5 + recordLen) return { kind: 'more' };
  const rec = buf.subarray(5, 5 + recordLen);
  if (rec[0] !== 0x01) return unknown('not a ClientHello');
  const helloLen = (rec[1] << 16) | (rec[2] << 8) | rec[3];
  // A ClientHello spread over several records is refused: real clients send one record.
  if (4 + helloLen > rec.length) return unknown('ClientHello spans several records');
  const hello = rec.subarray(4, 4 + helloLen);
  let p = 2 + 32; // client_version, random
  if (p + 1 > hello.length) return unknown('truncated ClientHello');
  p += 1 + hello[p]; // session id
  if (p + 2 > hello.length) return unknown('truncated ClientHello');
  p += 2 + hello.readUInt16BE(p); // cipher suites
  if (p + 1 > hello.length) return unknown('truncated ClientHello');
  p += 1 + hello[p]; // compression methods
  if (p + 2 > hello.length) return unknown('ClientHello without extensions (no SNI)');
  const extEnd = p + 2 + hello.readUInt16BE(p);
  if (extEnd > hello.length) return unknown('truncated ClientHello extensions');
  p += 2;
  while (p + 4 <= extEnd) {
    const type = hello.readUInt16BE(p);
    const len = hello.readUInt16BE(p + 2);
    const start = p + 4;
    if (start + len > extEnd) return unknown('truncated ClientHello extension');
    if (type === 0) return serverName(hello.subarray(start, start + len));
    p = start + len;
  }
  return unknown('ClientHello without SNI');
}

function serverName(ext: Buffer): Sniffed {
  if (ext.length < 2) return unknown('bad server_name extension');
  const listEnd = 2 + ext.readUInt16BE(0);
  if (listEnd > ext.length) return unknown('bad server_name extension');
  let p = 2;
  while (p + 3 <= listEnd) {
    const type = ext[p];
    const len = ext.readUInt16BE(p + 1);
    if (p + 3 + len > listEnd) return unknown('bad server_name entry');
    if (type === 0) {
      const host = normaliseHost(ext.toString('latin1', p + 3, p + 3 + len));
      return host ? { kind: 'tls', host } : unknown('SNI is not a host name');
    }
    p += 3 + len;
  }
  return unknown('server_name without a host_name');
}

const HEAD_END = Buffer.from('\r\n\r\n');

const TOKEN_PUNCT = "!#$%&'*+-.^_`|~";

/** The first `end` characters of `line` are an HTTP token. */
function isToken(line: string, end: number): boolean {
  for (let i = 0; i < end; i++) {
    const c = line.charCodeAt(i);
    const alnum = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
    if (!alnum && !TOKEN_PUNCT.includes(line[i])) return false;
  }
  return true;
}

// Method characters: upper-case letters only (GET, POST, CONNECT, PROPFIND…).
function sniffHttp(buf: Buffer): Sniffed {
  const limit = Math.min(buf.length, MAX_PEEK);
  let m = 0;
  while (m < limit && m <= MAX_METHOD && buf[m] >= 0x41 && buf[m] <= 0x5a) m++;
  if (m === limit) return m > MAX_METHOD ? unknown('method too long', true) : { kind: 'more' };
  if (buf[m] !== 0x20 || m > MAX_METHOD) return unknown('not an HTTP request line');
  const end = buf.subarray(0, limit).indexOf(HEAD_END);
  if (end < 0) return buf.length >= MAX_PEEK ? unknown('request head too large', true) : { kind: 'more' };
  const head = buf.toString('latin1', 0, end);
  const lines = head.split('\r\n');
  if (lines.length > MAX_HEADER_LINES) return unknown('too many header lines', true);
  const [method, target, version, extra] = lines[0].split(' ');
  if (extra !== undefined || !target || (version !== 'HTTP/1.1' && version !== 'HTTP/1.0')) return unknown('bad request line', true);
  let hostHeader: string | null = null;
  for (let i = 1; i < lines.length; i++) {
    const colon = lines[i].indexOf(':');
    // A name with spaces or a folded line could hide a second Host from this check but not from
    // the upstream: refused, as HTTP servers must.
    if (colon <= 0 || !isToken(lines[i], colon)) return unknown('bad header line', true);
    if (lines[i].slice(0, colon).toLowerCase() !== 'host') continue;
    if (hostHeader !== null) return unknown('several Host headers', true);
    hostHeader = lines[i].slice(colon + 1).trim();
  }
  const headEnd = end + HEAD_END.length;
  if (method === 'CONNECT') {
    const a = parseAuthority(target, null);
    return a ? { kind: 'http', via: 'connect', method, target, ...a, headEnd } : unknown('bad CONNECT target', true);
  }
  if (target.length > 7 && target.slice(0, 7).toLowerCase() === 'http://') {
    const rest = target.slice(7);
    let stop = rest.length;
    for (let i = 0; i < rest.length; i++) {
      const c = rest[i];
      if (c === '/' || c === '?' || c === '#') {
        stop = i;
        break;
      }
    }
    const a = parseAuthority(rest.slice(0, stop), 80);
    if (!a) return unknown('bad absolute-form target', true);
    // The upstream routes by Host: a Host naming another site than the one judged is refused.
    if (hostHeader !== null && parseAuthority(hostHeader, 80)?.host !== a.host) return unknown('Host differs from the request target', true);
    return { kind: 'http', via: 'absolute', method, target, ...a, headEnd };
  }
  if (!target.startsWith('/')) return unknown('unsupported request target', true);
  if (hostHeader === null) return unknown('no Host header', true);
  const a = parseAuthority(hostHeader, 80);
  return a ? { kind: 'http', via: 'host', method, target, ...a, headEnd } : unknown('bad Host header', true);
}
