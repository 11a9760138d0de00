// What the tester is asked about: a host, host:port, an IP, [v6]:port or an http(s) URL.
import { isDigitsAndDots, parseIp } from './addr';
import { checkDomain } from './entry';
import type { PolicyIssue } from './types';

export interface Destination {
  /** Lower-case domain without a trailing dot, or a normalised IP (IPv6 without brackets). */
  host: string;
  port: number;
  kind: 'ip' | 'domain';
}

const SCHEME = /^([a-z][a-z0-9+.-]{0,30}):\/\//i;
const PORT = /^\d{1,5}$/;
const WHITESPACE = /\s/;
const DEFAULT_PORT: Record<string, number> = { http: 80, https: 443 };

const refuse = (message: string): PolicyIssue => ({ path: 'destination', message });

function parseHost(host: string, port: number): Destination | PolicyIssue {
  const ip = parseIp(host);
  if (ip) return { host: ip.toString(), port, kind: 'ip' };
  if (isDigitsAndDots(host)) return refuse(`"${host}" is only digits and dots but not a dotted-quad IPv4 address; write four decimal parts, e.g. 10.0.0.1.`);
  if (host.includes(':')) return refuse(`"${host}" is not a valid IPv6 address.`);
  const d = checkDomain(host, false);
  if (!d.ok) return refuse(`"${host}": ${d.reason}.`);
  return { host: d.value, port, kind: 'domain' };
}

function parsePort(text: string): number | PolicyIssue {
  const n = Number(text);
  return PORT.test(text) && n >= 1 && n <= 65535 ? n : refuse(`The port "${text}" must be a number from 1 to 65535.`);
}

/** Parses a tester destination; a refusal is an issue at path "destination". */
export function parseDestination(input: string): Destination | PolicyIssue {
  let s = input.trim();
  if (s === '') return refuse('Enter a host, host:port, IP or URL.');
  if (WHITESPACE.test(s)) return refuse('A destination cannot contain whitespace.');
  let defaultPort = 443;
  const scheme = SCHEME.exec(s);
  if (scheme) {
    const name = scheme[1].toLowerCase();
    if (!(name in DEFAULT_PORT)) return refuse(`The scheme "${name}" is not supported; enter an http(s) URL or host:port.`);
    defaultPort = DEFAULT_PORT[name];
    s = s.slice(scheme[0].length);
    const end = s.search(/[/?#]/);
    if (end >= 0) s = s.slice(0, end);
  } else if (s.search(/[/?#]/) >= 0) {
    return refuse('A path needs a scheme; enter a host, host:port or a full http(s) URL.');
  }
  if (s.includes('@')) return refuse('User information ("…@") is not accepted; enter the host alone.');
  if (s.includes('%')) return refuse('Zone ids and percent-encoding are not accepted in a host.');
  if (s === '') return refuse('The URL has no host.');
  let host = s;
  let port: number | PolicyIssue = defaultPort;
  if (s.startsWith('[')) {
    const close = s.indexOf(']');
    if (close < 0) return refuse('A "[" opens an IPv6 address but no "]" closes it.');
    host = s.slice(1, close);
    const rest = s.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) return refuse('After "]" only ":port" may follow.');
    if (rest !== '') port = parsePort(rest.slice(1));
    if (!parseIp(host) || !host.includes(':')) return refuse(`"${host}" in brackets is not an IPv6 address.`);
  } else {
    const colons = s.split(':').length - 1;
    if (colons === 1) {
      host = s.slice(0, s.indexOf(':'));
      port = parsePort(s.slice(s.indexOf(':') + 1));
    }
  }
  if (typeof port !== 'number') return port;
  return parseHost(host.toLowerCase(), port);
}

export const isDestinationIssue = (d: Destination | PolicyIssue): d is PolicyIssue => 'message' in d;
