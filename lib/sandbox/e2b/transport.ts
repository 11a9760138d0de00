// HTTP for the E2B-protocol client: one undici Agent per config (custom CA, skip-verify, an
// optional DNS lookup), calls with a deadline, and the sandbox Host kept when going through a
// gateway. undici derives the TLS server name from the Host header, so a gateway with a wildcard
// certificate for the sandbox domain verifies as it would with direct DNS.
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { Agent, type Dispatcher, request } from 'undici';
import { DEFAULT_REQUEST_TIMEOUT_MS, type E2bConfig } from './config';
import { parseUpstreamError, transportError, type UpstreamError } from './errors';

export interface TransportDeps {
  /** Resolves host names (tests map a sandbox domain to loopback with it). */
  lookup?: LookupFunction;
}

export interface CallOptions {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  origin: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
  /** Deadline for the whole call; 0 means only `signal` ends it (streams). */
  timeoutMs?: number;
}

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

export class Transport {
  readonly agent: Agent;
  readonly timeoutMs: number;

  constructor(cfg: E2bConfig, deps: TransportDeps = {}) {
    this.timeoutMs = cfg.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.agent = new Agent({
      connect: {
        ...(cfg.caCert ? { ca: cfg.caCert } : {}),
        ...(cfg.skipTlsVerify ? { rejectUnauthorized: false } : {}),
        ...(deps.lookup ? { lookup: deps.lookup } : {}),
      },
      headersTimeout: this.timeoutMs,
      bodyTimeout: 0,
    });
  }

  /** Sends one request; transport failures become typed AppErrors, any HTTP status is returned. */
  async send(o: CallOptions): Promise<Response> {
    const timeoutMs = o.timeoutMs ?? this.timeoutMs;
    const ctl = new AbortController();
    let timedOut = false;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            ctl.abort();
          }, timeoutMs)
        : undefined;
    const onAbort = () => ctl.abort(o.signal?.reason);
    if (o.signal?.aborted) ctl.abort(o.signal.reason);
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const target = `${o.headers?.host ?? new URL(o.origin).host}`;
    try {
      const res = await request(`${o.origin}${o.path}`, {
        method: o.method,
        headers: o.headers,
        body: o.body,
        signal: ctl.signal,
        dispatcher: this.agent as Dispatcher,
      });
      res.body.once('end', () => clearTimeout(timer));
      res.body.once('close', () => {
        clearTimeout(timer);
        o.signal?.removeEventListener('abort', onAbort);
      });
      return { status: res.statusCode, headers: res.headers, body: res.body };
    } catch (e) {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      if (o.signal?.aborted && !timedOut) throw o.signal.reason ?? e;
      throw transportError(target, e, timedOut);
    }
  }

  /** Sends and reads the whole body (up to `maxBytes`), for JSON answers. */
  async text(o: CallOptions, maxBytes = 8 << 20): Promise<{ status: number; headers: Response['headers']; text: string }> {
    const res = await this.send(o);
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const c of res.body) {
        size += (c as Buffer).length;
        if (size > maxBytes) {
          res.body.destroy();
          break;
        }
        chunks.push(c as Buffer);
      }
    } catch (e) {
      throw transportError(o.headers?.host ?? new URL(o.origin).host, e, false);
    }
    return { status: res.status, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') };
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

export function header(h: Response['headers'], name: string): string | undefined {
  const v = h[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export async function readError(res: Response): Promise<UpstreamError> {
  let text = '';
  try {
    for await (const c of res.body) {
      if (text.length < 64 << 10) text += (c as Buffer).toString('utf8');
    }
  } catch {
    /* the status alone still says what happened */
  }
  return parseUpstreamError(res.status, text);
}
