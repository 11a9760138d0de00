// A client for one OpenClaw gateway's WebSocket RPC: the challenge/connect handshake with the
// gateway's shared token (and, for a gateway on another machine, a paired device identity), then
// request/response calls matched by id. Bounded everywhere: connect and call time limits, the
// frame size on both directions, and a closed socket fails every call still waiting.
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { AppError, isAppError } from '../../core/errors';
import {
  connectParams,
  type DeviceIdentity,
  type HelloOk,
  isStaleHash,
  isTransient,
  OPERATOR_SCOPES,
  parseFrame,
  type RpcErrorShape,
  retryAfterMs,
  rpcError,
} from './rpc-frames';

export interface RpcOptions {
  /** ws:// or wss:// address of the gateway. */
  url: string;
  token: string;
  device?: DeviceIdentity;
  /** The whole handshake, retries of a starting gateway included. */
  connectTimeoutMs?: number;
  callTimeoutMs?: number;
  /** The largest frame accepted or sent (the gateway's own limit, when lower, wins for sending). */
  maxFrameBytes?: number;
  /** Extra upgrade request headers (e.g. a reverse proxy's access headers). */
  headers?: Record<string, string>;
  clientVersion?: string;
}

export const CONNECT_TIMEOUT_MS = 20_000;
export const CALL_TIMEOUT_MS = 30_000;
export const MAX_FRAME_BYTES = 25 * 1024 * 1024;

/** A gateway refusal kept whole, so callers can look at its code (e.g. a stale config hash). */
export class GatewayRpcError extends Error {
  constructor(
    readonly shape: RpcErrorShape,
    readonly app: AppError,
  ) {
    super(app.message);
  }
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  timer: NodeJS.Timeout;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function checkGatewayUrl(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new AppError('validation', `"${url.slice(0, 200)}" is not a gateway address; use ws://host:port or wss://host:port.`);
  }
  if (u.protocol !== 'ws:' && u.protocol !== 'wss:')
    throw new AppError('validation', `The gateway address must start with ws:// or wss:// (got ${u.protocol}).`);
  if (u.username || u.password) throw new AppError('validation', 'The gateway address must not carry a user name or password; enter the token separately.');
  return u;
}

export class OpenClawRpc {
  private pending = new Map<string, Pending>();
  private closedWith: AppError | null = null;

  private constructor(
    private readonly ws: WebSocket,
    readonly hello: HelloOk,
    private readonly opts: Required<Pick<RpcOptions, 'url' | 'callTimeoutMs' | 'maxFrameBytes'>>,
  ) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const f = parseFrame(data.toString());
      if (f?.type !== 'res') return;
      const p = this.pending.get(f.id);
      if (!p) return;
      this.pending.delete(f.id);
      clearTimeout(p.timer);
      if (f.ok) p.resolve(f.payload);
      else p.reject(f.error ?? { code: 'UNKNOWN', message: 'refused without a reason' });
    });
    ws.on('close', (code, reason) => {
      this.closedWith = new AppError(
        'unavailable',
        `The connection to the gateway at ${opts.url} closed (${code}${reason.length ? ` ${reason.toString().slice(0, 200)}` : ''}).`,
        {
          details: { url: opts.url, reason: 'closed', closeCode: code },
        },
      );
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(this.closedWith);
        this.pending.delete(id);
      }
    });
    ws.on('error', () => {
      /* close follows */
    });
  }

  /** The gateway's version, as its handshake reports it. */
  get version(): string {
    return this.hello.server.version;
  }

  get isOpen(): boolean {
    return this.closedWith === null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Opens a connection and completes the handshake; a gateway still starting is retried within the budget. */
  static async connect(o: RpcOptions): Promise<OpenClawRpc> {
    checkGatewayUrl(o.url);
    const budget = o.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    const deadline = Date.now() + budget;
    for (;;) {
      try {
        return await OpenClawRpc.attempt(o, deadline);
      } catch (e) {
        if (!(e instanceof GatewayRpcError)) throw e;
        if (!isTransient(e.shape)) throw e.app;
        const wait = Math.min(retryAfterMs(e.shape) ?? 500, 2000);
        if (Date.now() + wait >= deadline) throw e.app;
        await sleep(wait);
      }
    }
  }

  private static attempt(o: RpcOptions, deadline: number): Promise<OpenClawRpc> {
    const maxFrameBytes = o.maxFrameBytes ?? MAX_FRAME_BYTES;
    const remaining = Math.max(1, deadline - Date.now());
    const unavailable = (message: string, reason: string, cause?: unknown) =>
      new AppError('unavailable', message, {
        details: { url: o.url, reason },
        hint: 'Check the address, and that the gateway runs and this server can reach it.',
        cause,
      });
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(o.url, {
        maxPayload: maxFrameBytes,
        handshakeTimeout: remaining,
        perMessageDeflate: false,
        followRedirects: false,
        ...(o.headers ? { headers: o.headers } : {}),
      });
      let settled = false;
      const fail = (e: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        ws.terminate();
        reject(e);
      };
      const timer = setTimeout(
        () =>
          fail(
            new AppError('unavailable', `The gateway at ${o.url} did not complete the handshake within ${Math.round(remaining / 1000)} s.`, {
              details: { url: o.url, reason: 'timeout' },
            }),
          ),
        remaining,
      );
      const connectId = randomUUID();
      ws.on('unexpected-response', (_req, res) =>
        fail(unavailable(`The address ${o.url} answered HTTP ${res.statusCode} instead of a gateway WebSocket.`, 'not_a_gateway')),
      );
      ws.on('error', (e) => fail(unavailable(`Cannot reach the gateway at ${o.url}: ${e.message}`, 'unreachable', e)));
      ws.on('close', (code, reason) =>
        fail(unavailable(`The gateway at ${o.url} closed the connection during the handshake (${code} ${reason.toString().slice(0, 200)}).`, 'closed')),
      );
      ws.on('message', (data, isBinary) => {
        if (settled || isBinary) return;
        const f = parseFrame(data.toString());
        if (f?.type === 'event' && f.event === 'connect.challenge') {
          const p = (f.payload ?? {}) as { nonce?: unknown; ts?: unknown };
          if (typeof p.nonce !== 'string' || !p.nonce || typeof p.ts !== 'number' || !Number.isInteger(p.ts) || p.ts < 0)
            return fail(
              new AppError('upstream_error', `The gateway at ${o.url} sent a malformed connect challenge.`, { details: { url: o.url, reason: 'protocol' } }),
            );
          const params = connectParams({
            token: o.token,
            nonce: p.nonce,
            ts: p.ts,
            clientVersion: o.clientVersion ?? '1.0.0',
            ...(o.device ? { device: o.device } : {}),
          });
          ws.send(JSON.stringify({ type: 'req', id: connectId, method: 'connect', params }));
          return;
        }
        if (f?.type !== 'res' || f.id !== connectId) return;
        if (!f.ok) {
          const shape = f.error ?? { code: 'UNKNOWN', message: 'refused without a reason' };
          return fail(new GatewayRpcError(shape, rpcError(o.url, 'connect', shape)));
        }
        const hello = f.payload as HelloOk;
        if (hello?.type !== 'hello-ok' || typeof hello.server?.version !== 'string')
          return fail(
            new AppError('upstream_error', `The gateway at ${o.url} answered the handshake with something other than hello-ok.`, {
              details: { url: o.url, reason: 'protocol' },
            }),
          );
        const scopes = hello.auth?.scopes ?? [];
        const missing = OPERATOR_SCOPES.filter((s) => !scopes.includes(s));
        if (missing.length) {
          const shape = { code: 'FORBIDDEN', message: `connected without ${missing.join(', ')}`, details: { code: 'MISSING_SCOPE', missingScope: missing[0] } };
          return fail(rpcError(o.url, 'connect', shape));
        }
        settled = true;
        clearTimeout(timer);
        ws.removeAllListeners();
        resolve(new OpenClawRpc(ws, hello, { url: o.url, callTimeoutMs: o.callTimeoutMs ?? CALL_TIMEOUT_MS, maxFrameBytes }));
      });
    });
  }

  /** One request; resolves with the payload, rejects with GatewayRpcError (refusals) or AppError (transport). */
  call<T = unknown>(method: string, params: Record<string, unknown>, timeoutMs = this.opts.callTimeoutMs): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = randomUUID();
    const text = JSON.stringify({ type: 'req', id, method, params });
    const limit = Math.min(this.opts.maxFrameBytes, this.hello.policy?.maxPayload ?? Number.POSITIVE_INFINITY);
    if (Buffer.byteLength(text) > limit)
      return Promise.reject(
        new AppError('payload_too_large', `The ${method} request is larger than the ${Math.floor(limit / 1024 / 1024)} MiB the gateway accepts.`),
      );
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new AppError('unavailable', `The gateway at ${this.opts.url} did not answer ${method} within ${Math.round(timeoutMs / 1000)} s.`, {
            details: { url: this.opts.url, method, reason: 'timeout' },
          }),
        );
      }, timeoutMs);
      this.pending.set(id, {
        resolve: resolve as (v: unknown) => void,
        reject: (e) => reject(isAppError(e) ? e : new GatewayRpcError(e as RpcErrorShape, rpcError(this.opts.url, method, e as RpcErrorShape))),
        timer,
      });
      this.ws.send(text, (err) => {
        if (!err) return;
        const p = this.pending.get(id);
        if (!p) return;
        this.pending.delete(id);
        clearTimeout(p.timer);
        reject(
          new AppError('unavailable', `Could not send ${method} to the gateway at ${this.opts.url}: ${err.message}`, {
            details: { url: this.opts.url, reason: 'closed' },
          }),
        );
      });
    });
  }

  /** Like call, with every refusal as its AppError. */
  async request<T = unknown>(method: string, params: Record<string, unknown>, timeoutMs?: number): Promise<T> {
    try {
      return await this.call<T>(method, params, timeoutMs);
    } catch (e) {
      throw e instanceof GatewayRpcError ? e.app : e;
    }
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.ws.terminate();
        resolve();
      }, 2000);
      this.ws.once('close', () => {
        clearTimeout(t);
        resolve();
      });
      this.ws.close(1000, 'done');
    });
  }
}

export { isStaleHash };
