import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { type Actor, can } from '../auth/actor';
import type { Permission } from '../auth/permissions';
import { isAppError } from '../core/errors';
import { logger } from '../core/logger';
import type { Services } from '../services';
import { authenticate, CLIENT_IP_HEADER, originAllowed } from './authenticate';

export interface SocketContext {
  actor: Actor;
  url: URL;
  services: Services;
  req: IncomingMessage;
}

export interface SocketRoute<P = undefined> {
  path: string;
  permission: Permission;
  /** Largest accepted frame, bytes. */
  maxPayload?: number;
  /** The route decodes text frames itself (fatal UTF-8) to close with its own code; ws then skips its check (close 1007). */
  checksUtf8?: boolean;
  /**
   * The route's own checks, run after authentication and before the handshake: a thrown AppError
   * is answered with its HTTP status and no socket is opened. What it returns reaches onConnection.
   */
  prepare?(ctx: SocketContext): Promise<P>;
  onConnection(ws: WebSocket, ctx: SocketContext & { prepared: P }): void;
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
};
const CODES: Record<number, string> = { 401: 'unauthenticated', 403: 'forbidden', 404: 'not_found' };

/** Answers an upgrade with a plain HTTP error and closes the socket once the answer is out. */
export function refuseUpgrade(socket: Duplex, status: number, message: string, body?: string) {
  const text = body ?? JSON.stringify({ error: { code: CODES[status] ?? 'refused', message } });
  socket.on('error', () => undefined);
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Refused'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
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
  // biome-ignore lint/suspicious/noExplicitAny: each route carries its own prepared type
  private routes = new Map<string, { route: SocketRoute<any>; wss: WebSocketServer }>();

  /**
   * `passThrough` names upgrade paths another listener owns (Next's HMR socket in development);
   * every other path outside the registered routes is answered 404 and closed.
   */
  constructor(
    private readonly services: () => Promise<Services>,
    private readonly passThrough: (pathname: string) => boolean = () => false,
  ) {}

  register<P>(route: SocketRoute<P>): void {
    // One server per route, so each route's frame size limit is enforced by ws itself.
    const wss = new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      maxPayload: route.maxPayload ?? 64 * 1024,
      skipUTF8Validation: route.checksUtf8 ?? false,
    });
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

  // biome-ignore lint/suspicious/noExplicitAny: see routes
  private async accept(route: SocketRoute<any>, wss: WebSocketServer, url: URL, req: IncomingMessage, socket: Duplex, head: Buffer) {
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
      const ctx: SocketContext = { actor, url, services, req };
      const prepared = route.prepare ? await route.prepare(ctx) : undefined;
      wss.handleUpgrade(req, socket, head, (ws) => {
        ws.on('error', () => undefined);
        route.onConnection(ws, { ...ctx, prepared });
      });
    } catch (e) {
      if (isAppError(e) && e.status >= 400 && e.status < 500) return refuse(socket, e.status, e.message, JSON.stringify(e.toJSON()));
      logger.error('websocket upgrade failed', { path: url.pathname, error: String(e) });
      socket.destroy();
    }
  }
}
