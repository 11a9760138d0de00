// The terminal's wire protocol. Binary frames carry terminal bytes both ways; JSON text frames carry
// control. Keystrokes never travel as text, so no input can be mistaken for a control frame.
import { z } from 'zod';

/** Application close codes (RFC 6455 leaves 4000–4999 to applications); reasons stay under 123 bytes. */
export const CLOSE = {
  idle: { code: 4000, reason: 'idle_disconnect' },
  revoked: { code: 4001, reason: 'auth_revoked' },
  sandbox_gone: { code: 4002, reason: 'sandbox_gone' },
  limit: { code: 4003, reason: 'limit_exceeded' },
  bad_frame: { code: 4004, reason: 'bad_frame' },
  internal: { code: 4005, reason: 'internal' },
  exited: { code: 4006, reason: 'shell_exited' },
  replaced: { code: 4007, reason: 'attached_elsewhere' },
  closed: { code: 4008, reason: 'closed_by_admin' },
  shutdown: { code: 4009, reason: 'server_shutdown' },
} as const;

export type CloseKind = keyof typeof CLOSE;

export const MAX_INPUT_FRAME_BYTES = 4096;
export const MAX_CONTROL_FRAME_BYTES = 1024;
export const MIN_GEOMETRY = 1;
export const MAX_GEOMETRY = 500;
export const DEFAULT_COLS = 80;
export const DEFAULT_ROWS = 24;

const dim = z.number().int().min(MIN_GEOMETRY).max(MAX_GEOMETRY);

const clientControl = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('resize'), cols: dim, rows: dim }),
  z.strictObject({ type: z.literal('ping') }),
]);

export type ClientFrame =
  | { kind: 'input'; bytes: Buffer }
  | { kind: 'resize'; cols: number; rows: number }
  | { kind: 'ping' }
  | { kind: 'refused'; close: CloseKind; message: string };

export type ServerFrame =
  | { type: 'ready'; sessionId: string; replayFrom: number }
  | { type: 'exited'; code: number | null }
  | { type: 'error'; code: string; message: string }
  | { type: 'pong' };

function refused(close: CloseKind, message: string): ClientFrame {
  return { kind: 'refused', close, message };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** One frame from the browser, as the `ws` library hands it over (`data`, `isBinary`). */
export function parseClientFrame(data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean): ClientFrame {
  const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
  if (isBinary) {
    if (bytes.length > MAX_INPUT_FRAME_BYTES) return refused('limit', `input frames carry at most ${MAX_INPUT_FRAME_BYTES} bytes`);
    return { kind: 'input', bytes };
  }
  if (bytes.length > MAX_CONTROL_FRAME_BYTES) return refused('limit', `control frames carry at most ${MAX_CONTROL_FRAME_BYTES} bytes`);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return refused('bad_frame', 'control frames must be UTF-8');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refused('bad_frame', 'control frames must be JSON');
  }
  const parsed = clientControl.safeParse(json);
  if (!parsed.success) {
    const type = (json as { type?: unknown } | null)?.type;
    if (type !== 'resize' && type !== 'ping') return refused('bad_frame', 'unknown control frame type');
    return refused('bad_frame', `resize needs integer cols and rows in [${MIN_GEOMETRY}, ${MAX_GEOMETRY}]`);
  }
  return parsed.data.type === 'resize' ? { kind: 'resize', cols: parsed.data.cols, rows: parsed.data.rows } : { kind: 'ping' };
}

export function encodeServerFrame(frame: ServerFrame): string {
  return JSON.stringify(frame);
}

const DIM_RE = /^[1-9][0-9]{0,2}$/;

/**
 * The initial size from the upgrade's query (`cols`, `rows`): absent means the default, anything else
 * must be a plain integer in range. Null for a refusal, checked before the upgrade is accepted.
 */
export function parseGeometry(cols: string | null | undefined, rows: string | null | undefined): { cols: number; rows: number } | null {
  const one = (v: string | null | undefined, fallback: number): number | null => {
    if (v === null || v === undefined) return fallback;
    if (!DIM_RE.test(v)) return null;
    const n = Number(v);
    return n >= MIN_GEOMETRY && n <= MAX_GEOMETRY ? n : null;
  };
  const c = one(cols, DEFAULT_COLS);
  const r = one(rows, DEFAULT_ROWS);
  return c === null || r === null ? null : { cols: c, rows: r };
}
