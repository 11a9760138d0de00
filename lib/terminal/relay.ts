// A re-attach that lands on a replica not holding the shell is relayed to the holder: this replica
// connects to the holder's /ws/terminal over its internal address, carrying the claims of the ticket
// it already spent in a header signed with a key every replica derives from the shared auth secret
// (so the holder spends no second ticket), and passes frames through unchanged both ways.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import { AppError, type ErrorCode } from '../core/errors';
import { HIGH_WATER, keepAlive, LOW_WATER } from './socket-flow';
import { type TicketClaims, ticketRefused } from './ticket';

export const RELAY_HEADER = 'x-skilldock-terminal-relay';
/** How long a signed relay stays acceptable; each is also accepted once only. */
const RELAY_TTL_MS = 30_000;
/** Headers of the browser's upgrade the holder needs to authenticate the same user from the same page. */
const FORWARDED = ['cookie', 'authorization', 'origin', 'host', 'user-agent'] as const;

interface RelayGrant {
  claims: TicketClaims;
  at: number;
  nonce: string;
}

function relayKey(authSecret: string): Buffer {
  return createHmac('sha256', authSecret).update('skilldock terminal relay v1').digest();
}

export function signRelay(authSecret: string, claims: TicketClaims, now = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ claims, at: now, nonce: randomBytes(16).toString('base64url') } satisfies RelayGrant)).toString('base64url');
  const mac = createHmac('sha256', relayKey(authSecret)).update(body).digest('base64url');
  return `${body}.${mac}`;
}

/** Checks a relay header: signed by a replica, fresh, not seen before; its claims, or the refusal. */
export class RelayVerifier {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly authSecret: string,
    private readonly now: () => number = Date.now,
  ) {}

  verify(header: string): TicketClaims | AppError {
    const [body, mac] = header.split('.');
    if (!body || !mac) return ticketRefused('unknown');
    const want = createHmac('sha256', relayKey(this.authSecret)).update(body).digest();
    const got = Buffer.from(mac, 'base64url');
    if (got.length !== want.length || !timingSafeEqual(got, want)) return ticketRefused('unknown');
    const grant = JSON.parse(Buffer.from(body, 'base64url').toString()) as RelayGrant;
    const now = this.now();
    for (const [n, at] of this.seen) if (now - at > RELAY_TTL_MS) this.seen.delete(n);
    if (Math.abs(now - grant.at) > RELAY_TTL_MS) return ticketRefused('expired');
    if (this.seen.has(grant.nonce)) return ticketRefused('reused');
    this.seen.set(grant.nonce, grant.at);
    return grant.claims;
  }
}

/**
 * Opens the upstream socket to the holder before the browser's handshake, so a refusal there is the
 * browser's refusal too (same status and body). The upstream is paused until piped.
 */
export function connectRelay(o: { address: string; query: URLSearchParams; req: IncomingMessage; grant: string }): Promise<WebSocket> {
  const url = new URL('/ws/terminal', o.address);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.search = o.query.toString();
  const headers: Record<string, string> = { [RELAY_HEADER]: o.grant };
  for (const h of FORWARDED) {
    const v = o.req.headers[h];
    if (typeof v === 'string') headers[h] = v;
  }
  const ws = new WebSocket(url, { headers, perMessageDeflate: false, handshakeTimeout: 10_000 });
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_r, res) => {
      let body = '';
      res.on('data', (c: Buffer) => {
        body += c.toString();
      });
      res.on('end', () => reject(refusalFrom(res.statusCode ?? 502, body)));
    });
    ws.once('open', () => {
      ws.pause();
      resolve(ws);
    });
    ws.once('error', (e) => reject(new AppError('sandbox_unreachable', `The replica holding this terminal session cannot be reached: ${e.message}`)));
  });
}

function refusalFrom(status: number, body: string): AppError {
  try {
    const e = (JSON.parse(body) as { error?: { code?: ErrorCode; message?: string; details?: Record<string, unknown> } }).error;
    if (e?.code && e.message) return new AppError(e.code, e.message, e.details ? { details: e.details } : {});
  } catch {
    // Not our JSON: reported by status below.
  }
  return new AppError('sandbox_unreachable', `The replica holding this terminal session refused the relay (HTTP ${status}).`);
}

/**
 * Frames pass unchanged both ways; either side closing closes the other with the same code. The
 * browser's side is pinged here (the holder pings only the relay), and a browser that reads slowly
 * pauses the holder's stream, which in turn pauses the shell's output there.
 */
export function pipeRelay(client: WebSocket, upstream: WebSocket): void {
  let drain: NodeJS.Timeout | null = null;
  const waitForDrain = () => {
    drain = setTimeout(() => {
      if (client.readyState !== WebSocket.OPEN) return;
      if (client.bufferedAmount > LOW_WATER) return waitForDrain();
      drain = null;
      upstream.resume();
    }, 10);
  };
  upstream.on('message', (data, isBinary) => {
    if (client.readyState !== WebSocket.OPEN) return;
    client.send(data as Buffer, { binary: isBinary });
    if (!drain && client.bufferedAmount > HIGH_WATER) {
      upstream.pause();
      waitForDrain();
    }
  });
  client.on('message', (data, isBinary) => {
    if (upstream.readyState === WebSocket.OPEN) upstream.send(data as Buffer, { binary: isBinary });
  });
  const stopKeepAlive = keepAlive(client);
  const closeOther = (to: WebSocket) => (code: number, reason: Buffer) => {
    stopKeepAlive();
    if (drain) clearTimeout(drain);
    // 1005/1006 are never sent on the wire: the other side sees a plain close.
    const c = code === 1005 || code === 1006 ? 1000 : code;
    if (to.readyState === WebSocket.OPEN || to.readyState === WebSocket.CONNECTING) to.close(c, reason);
  };
  client.on('close', closeOther(upstream));
  upstream.on('close', closeOther(client));
  upstream.on('error', () => client.terminate());
  client.on('error', () => upstream.terminate());
  upstream.resume();
}
