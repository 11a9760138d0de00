import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { type Actor, can } from '../auth/actor';
import type { Permission } from '../auth/permissions';
import { isAppError } from '../core/errors';
import { logger } from '../core/logger';
import type { Services } from '../services';
import { authenticate, CLIENT_IP_HEADER, originAllowed } from './authenticate';

export interface SocketRoute {
  path: string;
  permission: Permission;
  /** Largest accepted frame, bytes. */
  maxPayload?: number;
  onConnection(ws: WebSocket, ctx: { actor: Actor; url: URL; services: Services }): void;
}

const REASONS = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' } as const;
const CODES = { 401: 'unauthenticated', 403: 'forbidden', 404: 'not_found' } as const;

/** Answers an upgrade with a plain HTTP error and closes the socket once the answer is out. */
export function refuseUpgrade(socket: Duplex, status: 401 | 403 | 404, message: string, body?: string) {
  const text = body ?? JSON.stringify({ error: { code: CODES[status], message } });
  socket.on('error', () => undefined);
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
  // A client that never reads would keep the half-closed socket: it goes after a short grace.
  setTimeout(() => socket.destroy(), 2000).unref();
}
const refuse = refuseUpgrade;

/**
 * Routes WebSocket upgrades by exact path. Authentication (session cookie or bearer token), the
 * Origin check and the permission check all happen before the handshake; a refusal is a plain
 * HTTP 401/403 and no socket is opened. Any other path is answered 404 and closed, unless passed through.
 */
export class SocketRouter {
  private routes = new Map<string, { route: SocketRoute; wss: WebSocketServer }>();

  /**
   * `passThrough` names upgrade paths another listener owns (Next's HMR socket in development);
   * every other path outside the registered routes is answered 404 and closed.
   */
  constructor(
    private readonly services: () => Promise<Services>,
    private readonly passThrough: (pathname: string) => boolean = () => false,
  ) {}

  register(route: SocketRoute): void {
    // One server per route, so each route's frame size limit is enforced by ws itself.
    const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: route.maxPayload ?? 64 * 1024 });
    this.routes.set(route.path, { route, wss });
  }

  /** Returns false when the path is passed through, so another upgrade listener (Next's HMR) may take it. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://localhost');
    } catch {
      refuse(socket, 404, 'No WebSocket endpoint here.');
      return true;
    }
    if (this.passThrough(url.pathname)) return false;
    const entry = this.routes.get(url.pathname);
    if (!entry) {
      refuse(socket, 404, `No WebSocket endpoint at ${url.pathname.slice(0, 200)}.`);
      return true;
    }
    void this.accept(entry.route, entry.wss, url, req, socket, head);
    return true;
  }

  private async accept(route: SocketRoute, wss: WebSocketServer, url: URL, req: IncomingMessage, socket: Duplex, head: Buffer) {
    socket.on('error', () => undefined);
    try {
      const services = await this.services();
      const header = (n: string) => {
        const v = req.headers[n];
        return Array.isArray(v) ? v[0] : (v ?? null);
      };
      const actor = await authenticate(services, {
        authorization: header('authorization'),
        cookie: header('cookie'),
        ip: header(CLIENT_IP_HEADER),
        userAgent: header('user-agent'),
      });
      // A browser always sends Origin on a WebSocket handshake; cookie-authenticated sockets must come from this console.
      if (actor.via === 'session' && !originAllowed(header('origin'), header('host'), services.config.allowedOrigins, 'cross-site')) {
        return refuse(socket, 403, 'Cross-site WebSocket refused: the Origin does not match this console.');
      }
      if (!can(actor, route.permission)) return refuse(socket, 403, `This needs the "${route.permission}" permission.`);
      wss.handleUpgrade(req, socket, head, (ws) => {
        ws.on('error', () => undefined);
        route.onConnection(ws, { actor, url, services });
      });
    } catch (e) {
      if (isAppError(e) && e.status === 401) return refuse(socket, 401, e.message);
      logger.error('websocket upgrade failed', { path: url.pathname, error: String(e) });
      socket.destroy();
    }
  }
}
