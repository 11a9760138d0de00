// The header a `skilldock sync` client sends with its list and event-stream requests, so the console
// can show each folder client's status (where it runs, how it follows, whether its last pass was
// blocked) without a registration step. One line of `key=value` pairs separated by ";", each value
// percent-encoded: `id=<client id>; host=<host>; dir=<folder>; mode=events; poll=2000; blocked=0`.
// Shared by the command (which writes it) and the server (which reads it), so it imports nothing.

export const CLIENT_HEADER = 'x-skilldock-sync-client';
export const CLIENT_MODES = ['events', 'polling', 'once', 'check'] as const;
export type ClientMode = (typeof CLIENT_MODES)[number];

export interface FolderClientReport {
  /** Stable per host and folder: a hash the command derives, never chosen by the server. */
  id: string;
  host: string;
  dir: string;
  mode: ClientMode;
  /** How often it polls while it has no event stream (ms). */
  pollMs: number;
  /** Skills its last pass could not write (a folder it did not write in the way, a read that failed). */
  blocked: number;
}

const MAX_HEADER = 2048;
const LIMITS = { host: 255, dir: 1024 } as const;
const ID_RE = /^[a-f0-9]{16,64}$/;
const INT_RE = /^\d{1,9}$/;

export function formatClientHeader(r: FolderClientReport): string {
  const v = (s: string | number) => encodeURIComponent(String(s));
  return `id=${v(r.id)}; host=${v(r.host.slice(0, LIMITS.host))}; dir=${v(r.dir.slice(0, LIMITS.dir))}; mode=${v(r.mode)}; poll=${v(r.pollMs)}; blocked=${v(r.blocked)}`;
}

/** The report in a header value; a string saying what is wrong when the value is not one. */
export function parseClientHeader(value: string): FolderClientReport | string {
  if (value.length > MAX_HEADER) return `is longer than ${MAX_HEADER} characters`;
  const fields = new Map<string, string>();
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 1) return `has a part without key=value ("${part.trim().slice(0, 40)}")`;
    const key = part.slice(0, eq).trim();
    if (fields.has(key)) return `names ${key} twice`;
    let decoded: string;
    try {
      decoded = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return `has a badly encoded ${key}`;
    }
    fields.set(key, decoded);
  }
  const id = fields.get('id') ?? '';
  if (!ID_RE.test(id)) return 'needs id: 16 to 64 lower-case hex digits';
  const host = fields.get('host') ?? '';
  const dir = fields.get('dir') ?? '';
  if (!host || host.length > LIMITS.host || /\p{Cc}/u.test(host)) return `needs host: 1 to ${LIMITS.host} printable characters`;
  if (!dir || dir.length > LIMITS.dir || /\p{Cc}/u.test(dir)) return `needs dir: 1 to ${LIMITS.dir} printable characters`;
  const mode = fields.get('mode') as ClientMode;
  if (!CLIENT_MODES.includes(mode)) return `needs mode: one of ${CLIENT_MODES.join(', ')}`;
  const poll = fields.get('poll') ?? '';
  const blocked = fields.get('blocked') ?? '';
  if (!INT_RE.test(poll) || !INT_RE.test(blocked)) return 'needs poll and blocked as whole numbers';
  const unknown = [...fields.keys()].filter((k) => !['id', 'host', 'dir', 'mode', 'poll', 'blocked'].includes(k));
  if (unknown.length) return `has unknown keys: ${unknown.join(', ')}`;
  return { id, host, dir, mode, pollMs: Number(poll), blocked: Number(blocked) };
}
