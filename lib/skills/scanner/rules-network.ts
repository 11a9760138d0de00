/**
 * Network rules: remote code piped into an interpreter (the ClawHavoc install trick), unusual
 * sockets and IP-literal URLs, and hosts contacted by scripts that the skill does not declare.
 */
import { type FindingSink, flagAll, type Pattern, type Segment, type Spot, segMatches, spotAt } from './model';
import { NextOf } from './near';
import { hasAny } from './prefilter';
import { anchored, anchoredWord } from './triggers';

/** A shell or script interpreter as the target of a pipe, with optional sudo/env in front. */
export const INTERPRETER = String.raw`(?:sudo\s+(?:-[\w-]+\s+)*)?(?:env\s+(?:\w+=\S*\s+)*)?(?:\/usr(?:\/local)?\/bin\/|\/bin\/)?(?:(?:ba|z|da|k|fi)?sh|python[23]?(?:\.\d+)?|node|perl|ruby|php|pwsh|powershell)(?![\w.-])`;

const DOWNLOADERS = ['curl', 'wget', 'aria2c'];
/** Where an interpreter name or `eval` can start. */
const SHELLS_AND_EVAL = ['sh', 'bash', 'zsh', 'dash', 'ksh', 'python', 'node', 'perl', 'eval'];
const PS_CRADLE = ['iex', 'invoke-expression'];

const REMOTE_PIPE: Pattern[] = [
  [
    anchoredWord(new RegExp(String.raw`\b(?:curl|wget|aria2c)\b[^\n]{0,500}?(?<!\|)\|(?!\|)\s*${INTERPRETER}`, 'g'), DOWNLOADERS),
    'Downloads a script and pipes it straight into an interpreter.',
    DOWNLOADERS,
  ],
  [
    /(?:(?<![\w.-])(?:(?:ba|z|da|k)?sh|python[23]?|node|perl|source)|(?<![\w.])\.)\s+<\(\s*(?:sudo\s+)?(?:curl|wget)\b/g,
    'Runs a downloaded script through process substitution.',
    ['<('],
  ],
  [
    anchoredWord(
      /(?:(?<![\w.-])(?:(?:ba|z|da|k)?sh|python[23]?|node|perl)\s{1,100}-c|(?<![\w-])eval)\s{1,100}["']?(?:\$\(|`)\s{0,100}(?:sudo\s{1,100})?(?:curl|wget)\b/g,
      SHELLS_AND_EVAL,
    ),
    'Runs the output of a download as code.',
    DOWNLOADERS,
  ],
  [
    {
      head: /\b(?:iex|Invoke-Expression)\b/gi,
      tail: /\b(?:iwr|irm|curl|wget|Invoke-WebRequest|Invoke-RestMethod)\b|\.DownloadString\s*\(|\bNet\.WebClient\b/gi,
      gap: 300,
    },
    'PowerShell download cradle: downloaded text run with Invoke-Expression.',
    PS_CRADLE,
  ],
  [
    { head: /\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b|\.DownloadString\s*\(/gi, tail: /\|\s*(?:iex|Invoke-Expression)\b/gi, gap: 300 },
    'PowerShell download cradle: downloaded text piped into Invoke-Expression.',
    PS_CRADLE,
  ],
];

/** Download then run, in steps: `curl`/`wget`, an output file, then `&&`/`;` and a command running that file. */
const DOWNLOADER = anchoredWord(/\b(?:curl|wget)\b/g, ['curl', 'wget']);
const OUTPUT_FILE = /(?:\s-o\s*|\s-O\s+|\s--output(?:-document)?[=\s]|>\s*)['"]?([\w./~$-]{1,200})/g;
const RUN_PREFIX = /\s*(?:chmod\s+[+\w]+\s+[^\s;&]+\s*(?:&&|;)\s*)?(?:sudo\s+)?/y;
const RUN_INTERPRETER = /(?:(?:ba|z|da|k)?sh|python[23]?|node|perl|source|\.)\s+/y;
const NAME_CHAR = /[\w./-]/;

function stickyEnd(re: RegExp, text: string, at: number): number {
  re.lastIndex = at;
  const m = re.exec(text);
  return m ? at + m[0].length : -1;
}

/** True when the command after the separator ending at `at` runs `name` (itself, `./name`, or through an interpreter). */
function runsFile(text: string, at: number, name: string): boolean {
  const start = stickyEnd(RUN_PREFIX, text, at);
  const viaInterpreter = stickyEnd(RUN_INTERPRETER, text, start);
  for (const p of viaInterpreter >= 0 ? [start, viaInterpreter] : [start]) {
    for (const written of [name, `./${name}`]) {
      const end = p + written.length;
      if (text.startsWith(written, p) && !NAME_CHAR.test(text[end] ?? '')) return true;
    }
  }
  return false;
}

/** True when a `&&` or `;` within 200 characters after `from` (same line) is followed by a run of `name`. */
function thenRuns(text: string, from: number, name: string): boolean {
  for (let i = from; i < text.length && i - from <= 200 && text[i] !== '\n'; i++) {
    if (text[i] === ';' && runsFile(text, i + 1, name)) return true;
    if (text[i] === '&' && text[i + 1] === '&' && runsFile(text, i + 2, name)) return true;
  }
  return false;
}

function downloadThenRun(seg: Segment, sink: FindingSink): void {
  if (!hasAny(seg, DOWNLOADERS)) return;
  const text = seg.code;
  // Output files found so far at or after the current download (the text is read once, left to right),
  // each with whether the command after it runs it: that does not depend on the download before it.
  const outputs: { m: RegExpExecArray; runs?: boolean }[] = [];
  let scanned = 0;
  let done = false;
  let resume = 0;
  const newline = new NextOf(text, '\n');
  for (const head of segMatches(seg, DOWNLOADER)) {
    if (head.index < resume) continue;
    const from = head.index + head[0].length;
    const limit = Math.min(from + 300, newline.from(from));
    while (outputs.length && outputs[0].m.index < from) outputs.shift();
    scanned = Math.max(scanned, from);
    while (!done && (outputs.length === 0 || outputs[outputs.length - 1].m.index <= limit)) {
      OUTPUT_FILE.lastIndex = scanned;
      const m = OUTPUT_FILE.exec(text);
      if (!m) done = true;
      else {
        outputs.push({ m });
        scanned = m.index + m[0].length;
      }
    }
    for (const out of outputs) {
      if (out.m.index > limit) break;
      const end = out.m.index + out.m[0].length;
      out.runs ??= thenRuns(text, end, out.m[1]);
      if (!out.runs) continue;
      sink.add(seg, 'remote-pipe-shell', 'critical', head.index, 'Downloads a script to a file and runs it.');
      resume = end;
      break;
    }
  }
}

export function remotePipeRules(seg: Segment, sink: FindingSink): void {
  flagAll(sink, seg, 'remote-pipe-shell', 'critical', REMOTE_PIPE);
  downloadThenRun(seg, sink);
}

// process-wide: a constant table, never written
const STANDARD_PORTS = new Set([80, 443, 8080, 8443, 3000]);

export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(h) || h === '0.0.0.0' || h === '::1' || h === '::';
}

const WS_URL = anchoredWord(/\bwss?:\/\/(?<host>\[[^\]\s]{1,60}\]|[^\s/'"`:?#$]{1,253})(?::(?<port>\d{1,5}))?/gi, ['ws:/', 'wss:/']);
const RAW_SOCKETS: RegExp[] = [
  anchored(/\.connect(?:_ex)?\s*\(\s*\(\s*['"](?<host>[^'"\s]{1,253})['"]\s*,\s*(?<port>\d{1,5})\s*\)/g, ['.connect']),
  anchoredWord(
    /\b(?:net|tls)\s{0,100}\.\s{0,100}(?:connect|createConnection)\s{0,100}\(\s{0,100}(?<port>\d{1,5})\s{0,100},\s{0,100}['"`](?<host>[^'"`\s]{1,253})['"`]/g,
    ['net', 'tls'],
  ),
  anchored(/\.connect\s*\(\s*(?<port>\d{1,5})\s*,\s*['"`](?<host>[^'"`\s]{1,253})['"`]/g, ['.connect']),
  anchoredWord(/(?<![\w.-])(?:nc|ncat|netcat|telnet)\s{1,100}(?:-[\w]{1,100}\s{1,100}){0,6}(?<host>[A-Za-z0-9][\w.-]{0,252})\s{1,100}(?<port>\d{1,5})\b/g, [
    'nc',
    'netcat',
    'telnet',
  ]),
  anchored(/TCPClient\s*\(\s*['"](?<host>[^'"\s]{1,253})['"]\s*,\s*(?<port>\d{1,5})/gi, ['tcpclient']),
  anchored(/TCPSocket\s{0,100}\.\s{0,100}(?:new|open)\s{0,100}\(\s{0,100}['"](?<host>[^'"\s]{1,253})['"]\s{0,100},\s{0,100}(?<port>\d{1,5})/g, ['tcpsocket']),
];
const IP_URL = anchoredWord(/\b(?:https?|wss?|ftp):\/\/(?<host>\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:.]{2,45}\])/gi, ['http', 'ws:/', 'wss:/', 'ftp:/']);

const RAW_SOCKET_WORDS = ['connect', 'nc', 'telnet', 'tcpclient', 'tcpsocket'];

export function suspiciousNetworkRules(seg: Segment, sink: FindingSink): void {
  if (!hasAny(seg, ['://', ...RAW_SOCKET_WORDS])) return;
  for (const m of segMatches(seg, WS_URL)) {
    const { host, port } = m.groups!;
    if (port && !STANDARD_PORTS.has(Number(port)) && !isLoopbackHost(host)) {
      sink.add(seg, 'suspicious-network', 'warn', m.index, `WebSocket to ${host} on non-standard port ${port}.`);
    }
  }
  for (const re of hasAny(seg, RAW_SOCKET_WORDS) ? RAW_SOCKETS : []) {
    for (const m of segMatches(seg, re)) {
      const { host, port } = m.groups!;
      if (!STANDARD_PORTS.has(Number(port)) && !isLoopbackHost(host)) {
        sink.add(seg, 'suspicious-network', 'warn', m.index, `Raw socket to ${host} on non-standard port ${port}.`);
      }
    }
  }
  for (const m of segMatches(seg, IP_URL)) {
    const host = m.groups!.host;
    if (isLoopbackHost(host)) continue;
    const message =
      host === '169.254.169.254'
        ? 'Cloud metadata endpoint (instance credentials) contacted by IP.'
        : `URL with a raw IP address (${host}) instead of a host name.`;
    sink.add(seg, 'suspicious-network', 'warn', m.index, message);
  }
}

const HTTP_URL = anchoredWord(/\bhttps?:\/\/(\[[0-9a-fA-F:.]{2,45}\]|[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}\.){0,10}[A-Za-z0-9-]{1,63})(?![\w-])/g, ['http']);
/** Namespace URLs that appear in code without being contacted. */
const NON_CONTACT_HOSTS = /(?:^|\.)(?:w3\.org|json-schema\.org|xmlsoap\.org|purl\.org)$/;

/** First place each http(s) host appears in the segment (script files only). */
export function collectHosts(seg: Segment, into: Map<string, Spot>): void {
  if (!hasAny(seg, ['http'])) return;
  for (const m of segMatches(seg, HTTP_URL)) {
    const host = m[1].toLowerCase();
    const isIp = host.startsWith('[') || /^\d+(?:\.\d+){3}$/.test(host);
    if (!isIp && !host.includes('.')) continue;
    if (isLoopbackHost(host) || NON_CONTACT_HOSTS.test(host) || into.has(host)) continue;
    into.set(host, spotAt(seg, m.index));
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
export function undeclaredNetworkRules(hosts: ReadonlyMap<string, Spot>, declared: { homepage?: string; installUrls?: string[] }, sink: FindingSink): void {
  const allowed = [declared.homepage, ...(declared.installUrls ?? [])].flatMap((u) => (u ? [hostOf(u)] : [])).filter((h): h is string => !!h);
  // Hosts first seen on the same line share one finding (findings are unique per rule, file, line).
  const byLine = new Map<string, { at: Spot; hosts: string[] }>();
  for (const [host, at] of hosts) {
    const bare = host.replace(/^www\./, '');
    if (allowed.some((d) => bare === d || bare.endsWith(`.${d}`))) continue;
    const key = `${at.file}\u0000${at.line}`;
    const entry = byLine.get(key) ?? { at, hosts: [] };
    entry.hosts.push(host);
    byLine.set(key, entry);
  }
  for (const { at, hosts: list } of byLine.values()) {
    const what = list.length === 1 ? list[0] : list.join(', ');
    sink.addAt(at, 'undeclared-network', 'info', `Script contacts ${what}, not the skill's homepage or an install URL host.`);
  }
}
