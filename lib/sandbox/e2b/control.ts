// The E2B control plane (also served by CubeSandbox's CubeAPI): create, list with paging and a
// metadata filter, get, kill, TTL changes, connect and the network update, all with `X-API-Key`.
import { AppError } from '@/lib/core/errors';
import { trimEndChar } from '@/lib/core/text';
import type { E2bConfig } from './config';
import { upstreamError } from './errors';
import type { NetworkUpdateWire, WireNetwork } from './network-wire';
import { header, readError, type Transport } from './transport';

export interface NewSandbox {
  templateID: string;
  timeout?: number;
  metadata?: Record<string, string>;
  envVars?: Record<string, string>;
  secure?: boolean;
  allow_internet_access?: boolean;
  network?: WireNetwork;
}

export interface CreatedSandbox {
  sandboxID: string;
  templateID: string;
  envdVersion: string;
  envdAccessToken?: string | null;
  domain?: string | null;
}

export interface ListedSandbox {
  sandboxID: string;
  templateID: string;
  startedAt: string;
  endAt?: string;
  state?: 'running' | 'paused';
  metadata?: Record<string, string>;
  envdVersion?: string;
  envdAccessToken?: string | null;
  domain?: string | null;
}

/** The outcome of an optional route: done, or the remote does not offer it. */
export type Optional = 'ok' | 'unsupported';

const ID = /^[A-Za-z0-9_-]{1,128}$/;
const PAGE = 100;
const MAX_PAGES = 100;

export function checkSandboxId(id: string): string {
  if (!ID.test(id))
    throw new AppError('validation', 'A sandbox id is 1-128 letters, digits, _ or -.', { issues: [{ path: 'id', message: 'invalid sandbox id' }] });
  return id;
}

export class ControlPlane {
  private readonly origin: string;
  private readonly base: string;

  constructor(
    private readonly cfg: E2bConfig,
    private readonly http: Transport,
  ) {
    const u = new URL(cfg.apiUrl);
    this.origin = u.origin;
    this.base = trimEndChar(u.pathname, '/');
  }

  private async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, what: string, body?: unknown, signal?: AbortSignal) {
    const res = await this.http.send({
      method,
      origin: this.origin,
      path: `${this.base}${path}`,
      headers: {
        'x-api-key': this.cfg.apiKey,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal,
    });
    if (res.status >= 400) return { status: res.status, error: await readError(res), what };
    let text = '';
    for await (const c of res.body) text += (c as Buffer).toString('utf8');
    const data = text ? (JSON.parse(text) as T) : (undefined as T);
    return { status: res.status, data, headers: res.headers, what };
  }

  async health(signal?: AbortSignal): Promise<void> {
    // Some compatibles implement only v2: a page of one tells reachability and credentials apart.
    const r = await this.call<unknown>('GET', '/v2/sandboxes?limit=1', 'The sandbox list', undefined, signal);
    if ('error' in r && r.error) throw upstreamError(r.what, r.error);
  }

  async create(req: NewSandbox, signal?: AbortSignal): Promise<CreatedSandbox> {
    const r = await this.call<CreatedSandbox>('POST', '/sandboxes', `Template ${req.templateID}`, req, signal);
    if ('error' in r && r.error) {
      const err = upstreamError(r.what, r.error);
      if (err.code === 'sandbox_not_found') {
        throw new AppError('sandbox_template_missing', `Template ${req.templateID} was not found`, {
          details: err.details,
          hint: 'Check the template id; E2B templates also need the `default` tag.',
        });
      }
      throw err;
    }
    return r.data as CreatedSandbox;
  }

  /** Every page of `GET /v2/sandboxes` (bounded), filtered by metadata on the server. */
  async list(metadata: Record<string, string>, signal?: AbortSignal): Promise<ListedSandbox[]> {
    const out: ListedSandbox[] = [];
    const meta = new URLSearchParams(metadata).toString();
    let next: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const q = new URLSearchParams({ limit: String(PAGE), state: 'running,paused' });
      if (meta) q.set('metadata', meta);
      if (next) q.set('nextToken', next);
      const r = await this.call<ListedSandbox[]>('GET', `/v2/sandboxes?${q}`, 'The sandbox list', undefined, signal);
      if ('error' in r && r.error) throw upstreamError(r.what, r.error);
      out.push(...((r.data as ListedSandbox[] | undefined) ?? []));
      next = r.headers ? header(r.headers, 'x-next-token') : undefined;
      if (!next) break;
    }
    return out;
  }

  async get(id: string, signal?: AbortSignal): Promise<ListedSandbox | null> {
    const r = await this.call<ListedSandbox>('GET', `/sandboxes/${checkSandboxId(id)}`, `Sandbox ${id}`, undefined, signal);
    if ('error' in r && r.error) {
      if (r.status === 404) return null;
      throw upstreamError(r.what, r.error);
    }
    return r.data as ListedSandbox;
  }

  /** Kills the sandbox; absent is not an error. */
  async kill(id: string, signal?: AbortSignal): Promise<void> {
    const r = await this.call<unknown>('DELETE', `/sandboxes/${checkSandboxId(id)}`, `Sandbox ${id}`, undefined, signal);
    if ('error' in r && r.error && r.status !== 404) throw upstreamError(r.what, r.error);
  }

  private async optional(path: string, id: string, body: unknown, method: 'POST' | 'PUT' = 'POST', signal?: AbortSignal): Promise<Optional> {
    const r = await this.call<unknown>(method, `/sandboxes/${checkSandboxId(id)}${path}`, `Sandbox ${id}`, body, signal);
    if ('error' in r && r.error) {
      // A route the remote does not offer answers 404 (not registered) or 501, or 405 for the method.
      if (r.status === 501 || r.status === 405) return 'unsupported';
      if (r.status === 404 && !(await this.get(id, signal))) throw upstreamError(r.what, r.error);
      if (r.status === 404) return 'unsupported';
      throw upstreamError(r.what, r.error);
    }
    return 'ok';
  }

  /** Sets the remaining lifetime to `seconds` from now. */
  setTimeout(id: string, seconds: number, signal?: AbortSignal): Promise<Optional> {
    return this.optional('/timeout', id, { timeout: seconds }, 'POST', signal);
  }

  /** Extends the lifetime by `seconds` (≤ 3600). */
  refresh(id: string, seconds: number, signal?: AbortSignal): Promise<Optional> {
    return this.optional('/refreshes', id, { duration: Math.min(3600, seconds) }, 'POST', signal);
  }

  /** Resumes a paused sandbox (or confirms a running one) and returns its envd coordinates. */
  async connect(id: string, timeoutSeconds: number, signal?: AbortSignal): Promise<CreatedSandbox> {
    const r = await this.call<CreatedSandbox>('POST', `/sandboxes/${checkSandboxId(id)}/connect`, `Sandbox ${id}`, { timeout: timeoutSeconds }, signal);
    if ('error' in r && r.error) throw upstreamError(r.what, r.error);
    return r.data as CreatedSandbox;
  }

  /** Replaces every egress rule of a running sandbox: the body is the whole policy, an omitted field is cleared. */
  updateNetwork(id: string, body: NetworkUpdateWire, signal?: AbortSignal): Promise<Optional> {
    return this.optional('/network', id, body, 'PUT', signal);
  }
}
