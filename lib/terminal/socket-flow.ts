// Flow control shared by every terminal socket this server holds (a shell's own, or a relay to the
// replica holding the shell): when to pause the output, and the keep-alive that ends a dead peer.
import type { WebSocket } from 'ws';

/** Output held in a socket beyond which its source is paused until it drains below LOW_WATER. */
export const HIGH_WATER = 1 << 20;
export const LOW_WATER = 256 * 1024;
const PING_MS = 30_000;

/** Pings the socket every 30 s and ends it when a ping went unanswered; answers the stop. */
export function keepAlive(ws: WebSocket): () => void {
  let alive = true;
  const ping = setInterval(() => {
    if (!alive) return ws.terminate();
    alive = false;
    ws.ping();
  }, PING_MS);
  ping.unref();
  ws.on('pong', () => {
    alive = true;
  });
  return () => clearInterval(ping);
}
