// What the egress proxy answers instead of a tunnel: an HTTP status with a reason, or a TLS alert.
import type { Socket } from 'node:net';

/** A fatal TLS alert record, access_denied (49): the client reports a refusal, not a reset. */
export const TLS_ACCESS_DENIED = Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x31]);

export function answer(status: string, rule: string, proxyError: string): string {
  const body = rule.replace(/[\r\n]+/g, ' ') + '\n';
  return (
    `HTTP/1.1 ${status}\r\nX-Proxy-Error: ${proxyError}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** How long a refused client may take to read the answer before its socket is destroyed. */
export const REFUSAL_LINGER_MS = 2000;

/**
 * Sends the answer and half-closes; the socket is destroyed once the client closes its side or
 * after REFUSAL_LINGER_MS, so a client that never closes cannot keep a refused socket open.
 */
export function refuse(socket: Socket, data: string | Buffer): void {
  const timer = setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.resume();
  socket.end(data);
}
