import type { WebSocket } from 'ws';

export interface SocketPacing {
  /** Above this many unsent bytes, new messages are held (one per key, the latest wins) instead of sent. */
  maxBufferedBytes: number;
  /** Held keys past which the client is hopelessly behind: the socket is closed (it reconnects and re-reads). */
  maxHeld: number;
  /** Ping interval; a socket that did not answer the previous ping is terminated. */
  pingMs: number;
  /** How often held messages are retried while the socket drains. */
  drainMs?: number;
}

/**
 * Sends keyed messages to a socket without letting a slow reader grow the server's memory: while
 * the socket's send buffer is over the bound, messages are coalesced per key; a dead peer is found by ping.
 * Returns a function that sends `data` under `key`.
 */
export function pacedSender(ws: WebSocket, pacing: SocketPacing): (key: string, data: string) => void {
  const held = new Map<string, string>();
  let alive = true;
  const flush = () => {
    for (const [key, data] of held) {
      if (ws.readyState !== ws.OPEN || ws.bufferedAmount > pacing.maxBufferedBytes) return;
      held.delete(key);
      ws.send(data);
    }
  };
  const drain = setInterval(() => held.size && flush(), pacing.drainMs ?? 250);
  const ping = setInterval(() => {
    if (!alive) return ws.terminate();
    alive = false;
    ws.ping();
  }, pacing.pingMs);
  drain.unref();
  ping.unref();
  ws.on('pong', () => (alive = true));
  ws.on('close', () => {
    clearInterval(drain);
    clearInterval(ping);
    held.clear();
  });
  return (key, data) => {
    if (ws.readyState !== ws.OPEN) return;
    if (held.size === 0 && ws.bufferedAmount <= pacing.maxBufferedBytes) return ws.send(data);
    held.delete(key);
    held.set(key, data);
    if (held.size > pacing.maxHeld) {
      held.clear();
      ws.close(1013, 'Too slow: reconnect to catch up.');
    }
  };
}
