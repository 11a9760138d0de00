/**
 * Network rules: remote code piped into an interpreter (the ClawHavoc install trick), unusual
 * sockets and IP-literal URLs, and hosts contacted by scripts that the skill does not declare.
 */
import { type FindingSink, fileLineAt, flagAll, matches, type Pattern, type Segment } from './model';
import { hasAny } from './prefilter';

/** A shell or script interpreter as the target of a pipe, with optional sudo/env in front. */
export const INTERPRETER = String.raw`(?:sudo\s+(?:-[\w-]+\s+)*)?(?:env\s+(?:\w+=\S*\s+)*)?(?:\/usr(?:\/local)?\/bin\/|\/bin\/)?(?:(?:ba|z|da|k|fi)?sh|python[23]?(?:\.\d+)?|node|perl|ruby|php|pwsh|powershell)(?![\w.-])`;

const DOWNLOADERS = ['curl', 'wget', 'aria2c'];
const PS_CRADLE = ['iex', 'invoke-expression'];

const REMOTE_PIPE: Pattern[] = [
  [
    new RegExp(String.raw`\b(?:curl|wget|aria2c)\b[^\n]{0,500}?(?<!\|)\|(?!\|)\s*${INTERPRETER}`, 'g'),
    'Downloads a script and pipes it straight into an interpreter.',
    DOWNLOADERS,
  ],
  [
    /(?:(?<![\w.-])(?:(?:ba|z|da|k)?sh|python[23]?|node|perl|source)|(?<![\w.])\.)\s+<\(\s*(?:sudo\s+)?(?:curl|wget)\b/g,
    'Runs a downloaded script through process substitution.',
    ['<('],
  ],
  [
    /(?:(?<![\w.-])(?:(?:ba|z|da|k)?sh|python[23]?|node|perl)\s+-c|(?<![\w-])eval)\s+["']?(?:\$\(|`)\s*(?:sudo\s+)?(?:curl|wget)\b/g,
    'Runs the output of a download as code.',
    DOWNLOADERS,
  ],
  [
    /\b(?:iex|Invoke-Expression)\b[^\n]{0,300}?(?:\b(?:iwr|irm|curl|wget|Invoke-WebRequest|Invoke-RestMethod)\b|\.DownloadString\s*\(|\bNet\.WebClient\b)/gi,
    'PowerShell download cradle: downloaded text run with Invoke-Expression.',
    PS_CRADLE,
  ],
  [
    /(?:\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b|\.DownloadString\s*\()[^\n]{0,300}?\|\s*(?:iex|Invoke-Expression)\b/gi,
    'PowerShell download cradle: downloaded text piped into Invoke-Expression.',
    PS_CRADLE,
  ],
  [
    /\b(?:curl|wget)\b[^\n]{0,300}?(?:\s-o\s*|\s-O\s+|\s--output(?:-document)?[=\s]|>\s*)['"]?([\w./~$-]{1,200})['"]?[^\n]{0,200}?(?:&&|;)\s*(?:chmod\s+[+\w]+\s+\S+\s*(?:&&|;)\s*)?(?:sudo\s+)?(?:(?:(?:ba|z|da|k)?sh|python[23]?|node|perl|source|\.)\s+)?(?:\.\/)?\1(?![\w./-])/g,
    'Downloads a script to a file and runs it.',
    DOWNLOADERS,
  ],
];

export function remotePipeRules(seg: Segment, sink: FindingSink): void {
  flagAll(sink, seg, 'remote-pipe-shell', 'critical', REMOTE_PIPE);
}

const STANDARD_PORTS = new Set([80, 443, 8080, 8443, 3000]);

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '0.0.0.0' || h === '::1' || h === '::';
}

const WS_URL = /\bwss?:\/\/(?<host>\[[^\]\s]{1,60}\]|[^\s/'"`:?#$]{1,253})(?::(?<port>\d{1,5}))?/gi;
const RAW_SOCKETS: RegExp[] = [
  /\.connect(?:_ex)?\s*\(\s*\(\s*['"](?<host>[^'"\s]{1,253})['"]\s*,\s*(?<port>\d{1,5})\s*\)/g,
  /\b(?:net|tls)\s*\.\s*(?:connect|createConnection)\s*\(\s*(?<port>\d{1,5})\s*,\s*['"`](?<host>[^'"`\s]{1,253})['"`]/g,
  /\.connect\s*\(\s*(?<port>\d{1,5})\s*,\s*['"`](?<host>[^'"`\s]{1,253})['"`]/g,
  /(?<![\w.-])(?:nc|ncat|netcat|telnet)\s+(?:-[\w]+\s+){0,6}(?<host>[A-Za-z0-9][\w.-]{0,252})\s+(?<port>\d{1,5})\b/g,
  /TCPClient\s*\(\s*['"](?<host>[^'"\s]{1,253})['"]\s*,\s*(?<port>\d{1,5})/gi,
  /TCPSocket\s*\.\s*(?:new|open)\s*\(\s*['"](?<host>[^'"\s]{1,253})['"]\s*,\s*(?<port>\d{1,5})/g,
];
const IP_URL = /\b(?:https?|wss?|ftp):\/\/(?<host>\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:.]{2,45}\])/gi;

const RAW_SOCKET_WORDS = ['connect', 'nc', 'telnet', 'tcpclient', 'tcpsocket'];

export function suspiciousNetworkRules(seg: Segment, sink: FindingSink): void {
  if (!hasAny(seg, ['://', ...RAW_SOCKET_WORDS])) return;
  for (const m of matches(WS_URL, seg.code)) {
    const { host, port } = m.groups!;
    if (port && !STANDARD_PORTS.has(Number(port)) && !isLoopbackHost(host)) {
      sink.add(seg, 'suspicious-network', 'warn', m.index, `WebSocket to ${host} on non-standard port ${port}.`);
    }
  }
  for (const re of hasAny(seg, RAW_SOCKET_WORDS) ? RAW_SOCKETS : []) {
    for (const m of matches(re, seg.code)) {
      const { host, port } = m.groups!;
      if (!STANDARD_PORTS.has(Number(port)) && !isLoopbackHost(host)) {
        sink.add(seg, 'suspicious-network', 'warn', m.index, `Raw socket to ${host} on non-standard port ${port}.`);
      }
    }
  }
  for (const m of matches(IP_URL, seg.code)) {
    const host = m.groups!.host;
    if (isLoopbackHost(host)) continue;
    const message =
      host === '169.254.169.254'
        ? 'Cloud metadata endpoint (instance credentials) contacted by IP.'
        : `URL with a raw IP address (${host}) instead of a host name.`;
    sink.add(seg, 'suspicious-network', 'warn', m.index, message);
  }
}

const HTTP_URL = /\bhttps?:\/\/(\[[0-9a-fA-F:.]{2,45}\]|[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}\.){0,10}[A-Za-z0-9-]{1,63})(?![\w-])/g;
/** Namespace URLs that appear in code without being contacted. */
const NON_CONTACT_HOSTS = /(?:^|\.)(?:w3\.org|json-schema\.org|xmlsoap\.org|purl\.org)$/;

/** First place each http(s) host appears in the segment (script files only). */
export function collectHosts(seg: Segment, into: Map<string, { seg: Segment; offset: number }>): void {
  if (!hasAny(seg, ['http'])) return;
  for (const m of matches(HTTP_URL, seg.code)) {
    const host = m[1].toLowerCase();
    const isIp = host.startsWith('[') || /^\d+(?:\.\d+){3}$/.test(host);
    if (!isIp && !host.includes('.')) continue;
    if (isLoopbackHost(host) || NON_CONTACT_HOSTS.test(host) || into.has(host)) continue;
    into.set(host, { seg, offset: m.index });
  }
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

/** One info finding per contacted host that is not the homepage's or an install URL's host (or below it). */
export function undeclaredNetworkRules(
  hosts: Map<string, { seg: Segment; offset: number }>,
  declared: { homepage?: string; installUrls?: string[] },
  sink: FindingSink,
): void {
  const allowed = [declared.homepage, ...(declared.installUrls ?? [])].flatMap((u) => (u ? [hostOf(u)] : [])).filter((h): h is string => !!h);
  // Hosts first seen on the same line share one finding (findings are unique per rule, file, line).
  const byLine = new Map<string, { at: { seg: Segment; offset: number }; hosts: string[] }>();
  for (const [host, at] of hosts) {
    const bare = host.replace(/^www\./, '');
    if (allowed.some((d) => bare === d || bare.endsWith(`.${d}`))) continue;
    const key = `${at.seg.file}\u0000${fileLineAt(at.seg, at.offset)}`;
    const entry = byLine.get(key) ?? { at, hosts: [] };
    entry.hosts.push(host);
    byLine.set(key, entry);
  }
  for (const { at, hosts: list } of byLine.values()) {
    const what = list.length === 1 ? list[0] : list.join(', ');
    sink.add(at.seg, 'undeclared-network', 'info', at.offset, `Script contacts ${what}, not the skill's homepage or an install URL host.`);
  }
}
