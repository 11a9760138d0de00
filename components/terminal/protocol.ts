// The browser's side of the terminal protocol: ticket shape, connection states and close-code wording.
// The numbers mirror CLOSE in lib/terminal/frames.ts (that module imports zod and node Buffers, so the
// browser keeps its own copy of the few constants it needs).
import type { z } from 'zod';
import { errorMessage } from '@/components/error-message';
import type { terminalTicketOut } from '@/lib/terminal/schema';
import { ApiError } from '../api';

/** What the ticket operation answers; the ticket is single-use and valid for a minute. */
export type Ticket = z.output<typeof terminalTicketOut>;

export type GetTicket = (sessionId?: string) => Promise<Ticket>;

export type TerminalStatus =
  | { state: 'connecting' }
  | { state: 'connected' }
  | { state: 'reconnecting'; inSeconds: number; attempt: number }
  | { state: 'idle-warning'; seconds: number }
  | { state: 'exited'; code: number | null }
  /** `reattach`: the shell may still be running, so "Reconnect" can pick it up again. */
  | { state: 'closed'; code: number; reason: string; reattach: boolean }
  | { state: 'error'; message: string; reattach: boolean };

export type TerminalState = TerminalStatus['state'];

export const INPUT_CHUNK_BYTES = 2048;
export const PING_INTERVAL_MS = 25_000;
export const IDLE_WARNING_SECONDS = 60;
export const BACKOFF_MIN_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;
/** Consecutive failed attempts (no `ready` in between) before the client stops and shows an error. */
export const MAX_RECONNECT_ATTEMPTS = 12;
/** The code the client closes with when a test drops the socket; handled like a network drop. */
export const TEST_DROP_CODE = 3000;

const CLOSE_TEXT: Record<number, { text: string; sessionEnded: boolean }> = {
  1000: { text: 'The connection was closed.', sessionEnded: false },
  4000: { text: 'The shell was closed after being idle (no input for too long).', sessionEnded: true },
  4001: { text: 'Your access changed; sign in again or ask for the operator role.', sessionEnded: false },
  4002: { text: 'The sandbox is gone (stopped or removed).', sessionEnded: true },
  4003: { text: 'Closed: a limit was exceeded (too much input at once, or too many terminals).', sessionEnded: true },
  4004: { text: 'Closed: the browser sent a message the server did not understand.', sessionEnded: true },
  4005: { text: 'Closed: the server hit an internal error.', sessionEnded: false },
  4006: { text: 'The shell exited.', sessionEnded: true },
  4007: { text: 'This terminal was opened in another tab or window.', sessionEnded: false },
  4008: { text: 'An administrator closed this terminal.', sessionEnded: true },
  4009: { text: 'The server restarted, so this shell has ended.', sessionEnded: true },
};

/** A person-readable reason for a close code, and whether the shell behind it is certainly gone. */
export function describeClose(code: number): { text: string; sessionEnded: boolean } {
  return CLOSE_TEXT[code] ?? { text: `The connection closed unexpectedly (code ${code}).`, sessionEnded: false };
}

/**
 * Drops worth re-attaching after: the network or a proxy went away (1001, 1006, 1011–1014, or a code
 * outside the application range), never a close the server chose on purpose (1000, 4000–4999).
 */
export function isAbnormalClose(code: number): boolean {
  if (code === TEST_DROP_CODE) return true;
  if (code === 1000 || (code >= 4000 && code <= 4999)) return false;
  return true;
}

/** Why no ticket came: the server's own words, except for an expired sign-in. */
export function ticketRefusalText(e: unknown): string {
  if (!(e instanceof ApiError)) return errorMessage(e);
  if (e.status === 401) return 'Your sign-in has expired; reload the page and sign in again.';
  return e.message;
}

/** The server takes 1–500 columns and rows. */
export const clampDimension = (n: number) => Math.max(1, Math.min(500, Math.floor(n)));

export function backoffMs(attempt: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.max(0, attempt - 1));
}

/** Splits input into frames the server accepts (it refuses frames over 4096 bytes). */
export function chunkBytes(bytes: Uint8Array, size = INPUT_CHUNK_BYTES): Uint8Array[] {
  if (bytes.length <= size) return [bytes];
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** xterm's onBinary hands over a string with one byte per char code (e.g. mouse reports). */
export function binaryStringToBytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

export function terminalUrl(
  loc: { protocol: string; host: string },
  p: { ticket: string; sandbox: string; cols: number; rows: number; session?: string; offset?: number },
): string {
  const q = [`ticket=${encodeURIComponent(p.ticket)}`, `sandbox=${encodeURIComponent(p.sandbox)}`, `cols=${p.cols}`, `rows=${p.rows}`];
  if (p.session) q.push(`session=${encodeURIComponent(p.session)}`);
  if (p.session && p.offset !== undefined) q.push(`offset=${encodeURIComponent(String(p.offset))}`);
  return `${loc.protocol === 'https:' ? 'wss:' : 'ws:'}//${loc.host}/ws/terminal?${q.join('&')}`;
}
