// envd, the agent inside every E2B/Cube sandbox (port 49983): Connect-RPC JSON for processes and
// directory listings, plain HTTP for file bytes. Every call carries the sandbox's access token
// and the Linux user as `Authorization: Basic base64("user:")` (some compatibles require it).
import { randomBytes } from 'node:crypto';
import path from 'node:path/posix';
import type { Readable } from 'node:stream';
import { AppError, hasCode } from '@/lib/core/errors';
import { DEFAULT_USER, type E2bConfig, ENVD_PORT, envdTarget } from './config';
import { decodeEnvelopes, END_STREAM, encodeEnvelope, statusOfConnectCode } from './connect';
import { upstreamError } from './errors';
import { readError, type Transport } from './transport';

export interface EnvdSandbox {
  id: string;
  domain?: string | null;
  accessToken?: string | null;
}

export interface StartProcess {
  cmd: string;
  args: string[];
  envs?: Record<string, string>;
  cwd?: string;
  pty?: { cols: number; rows: number };
  tag?: string;
  stdin?: boolean;
}

export type ProcessEvent =
  | { type: 'start'; pid: number }
  | { type: 'data'; stream: 'stdout' | 'stderr' | 'pty'; data: Buffer }
  | { type: 'end'; exitCode: number; status?: string; error?: string }
  | { type: 'keepalive' };

export interface EnvdEntry {
  name: string;
  path: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
  size: number;
  modifiedAt?: Date;
}

type Signal = 'SIGNAL_SIGKILL' | 'SIGNAL_SIGTERM';

export class Envd {
  private readonly origin: string;
  private readonly host: string;
  private readonly user: string;

  constructor(
    cfg: E2bConfig,
    private readonly http: Transport,
    private readonly sandbox: EnvdSandbox,
  ) {
    const t = envdTarget(cfg, sandbox.id, sandbox.domain || cfg.domain);
    this.origin = t.origin;
    this.host = t.host;
    this.user = cfg.user ?? DEFAULT_USER;
  }

  private headers(user = this.user, extra: Record<string, string> = {}): Record<string, string> {
    return {
      host: this.host,
      // E2B's edge may route by these instead of the Host; Cube ignores them.
      'e2b-sandbox-id': this.sandbox.id,
      'e2b-sandbox-port': String(ENVD_PORT),
      authorization: `Basic ${Buffer.from(`${user}:`).toString('base64')}`,
      ...(this.sandbox.accessToken ? { 'x-access-token': this.sandbox.accessToken } : {}),
      ...extra,
    };
  }

  private what(): string {
    return `Sandbox ${this.sandbox.id}`;
  }

  async health(signal?: AbortSignal): Promise<void> {
    const res = await this.http.send({ method: 'GET', origin: this.origin, path: '/health', headers: this.headers(), signal });
    if (res.status >= 400) throw upstreamError(`envd of ${this.what()}`, await readError(res));
    res.body.resume();
  }

  /** A unary Connect call with a JSON body. */
  async unary<T>(method: string, body: unknown, user?: string, signal?: AbortSignal): Promise<T> {
    const r = await this.http.text({
      method: 'POST',
      origin: this.origin,
      path: `/${method}`,
      headers: this.headers(user, { 'content-type': 'application/json', 'connect-protocol-version': '1' }),
      body: JSON.stringify(body),
      signal,
    });
    if (r.status >= 400) throw this.rpcError(r.status, r.text);
    return (r.text ? JSON.parse(r.text) : {}) as T;
  }

  private rpcError(status: number, text: string): AppError {
    let code: string | undefined;
    let message: string | undefined;
    try {
      const j = JSON.parse(text) as { code?: string; message?: string };
      code = j.code;
      message = j.message;
    } catch {
      message = text.slice(0, 200);
    }
    return upstreamError(`envd of ${this.what()}`, { status: code ? statusOfConnectCode(code) : status, code, message });
  }

  /** Starts a process and yields its events; the stream ends after `end` (or an error frame). */
  async *start(p: StartProcess, opts: { user?: string; signal?: AbortSignal; deadlineMs?: number } = {}): AsyncGenerator<ProcessEvent> {
    const request = {
      process: { cmd: p.cmd, args: p.args, envs: p.envs ?? {}, ...(p.cwd ? { cwd: p.cwd } : {}) },
      ...(p.pty ? { pty: { size: { cols: p.pty.cols, rows: p.pty.rows } } } : {}),
      ...(p.tag ? { tag: p.tag } : {}),
      ...(p.stdin ? { stdin: true } : {}),
    };
    yield* this.stream('process.Process/Start', request, opts);
  }

  /** Re-attaches to a running process; only output produced from now on arrives. */
  async *attach(pid: number, opts: { user?: string; signal?: AbortSignal } = {}): AsyncGenerator<ProcessEvent> {
    yield* this.stream('process.Process/Connect', { process: { pid } }, opts);
  }

  private async *stream(method: string, request: unknown, opts: { user?: string; signal?: AbortSignal; deadlineMs?: number }): AsyncGenerator<ProcessEvent> {
    const res = await this.http.send({
      method: 'POST',
      origin: this.origin,
      path: `/${method}`,
      headers: this.headers(opts.user, {
        'content-type': 'application/connect+json',
        'connect-protocol-version': '1',
        'keepalive-ping-interval': '50',
        ...(opts.deadlineMs ? { 'connect-timeout-ms': String(opts.deadlineMs) } : {}),
      }),
      body: encodeEnvelope(request),
      signal: opts.signal,
      timeoutMs: 0,
    });
    if (res.status !== 200) {
      const e = await readError(res);
      throw this.rpcError(res.status, JSON.stringify({ code: e.code, message: e.message }));
    }
    try {
      for await (const f of decodeEnvelopes(res.body)) {
        if (f.flags & END_STREAM) {
          const err = (f.message as { error?: { code?: string; message?: string } }).error;
          if (err) throw this.rpcError(statusOfConnectCode(err.code), JSON.stringify(err));
          return;
        }
        const ev = parseEvent(f.message);
        if (ev) yield ev;
      }
    } finally {
      res.body.destroy();
    }
  }

  sendInput(pid: number, data: Buffer, pty = false): Promise<unknown> {
    return this.unary('process.Process/SendInput', { process: { pid }, input: pty ? { pty: data.toString('base64') } : { stdin: data.toString('base64') } });
  }

  closeStdin(pid: number): Promise<unknown> {
    return this.unary('process.Process/CloseStdin', { process: { pid } });
  }

  sendSignal(pid: number, signal: Signal = 'SIGNAL_SIGKILL'): Promise<unknown> {
    return this.unary('process.Process/SendSignal', { process: { pid }, signal });
  }

  resize(pid: number, cols: number, rows: number): Promise<unknown> {
    return this.unary('process.Process/Update', { process: { pid }, pty: { size: { cols, rows } } });
  }

  /** Writes one file through `POST /files` (multipart: every envd version accepts it). */
  async writeFile(filePath: string, data: Buffer, user = this.user): Promise<void> {
    const boundary = `----skilldock${randomBytes(12).toString('hex')}`;
    const name = path.basename(filePath).replace(/["\r\n\\]/g, '_');
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const body = Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${boundary}--\r\n`)]);
    const q = new URLSearchParams({ path: filePath, username: user });
    const r = await this.http.text({
      method: 'POST',
      origin: this.origin,
      path: `/files?${q}`,
      headers: this.headers(user, { 'content-type': `multipart/form-data; boundary=${boundary}` }),
      body,
    });
    if (r.status === 507) throw new AppError('disk_full', `The disk of ${this.what()} is full`);
    if (r.status >= 400) throw this.fileError(r.status, r.text, filePath);
  }

  /** Streams one file through `GET /files`, refusing more than `maxBytes` (by length, then while reading). */
  async readFile(filePath: string, maxBytes: number, user = this.user): Promise<Readable> {
    const q = new URLSearchParams({ path: filePath, username: user });
    const res = await this.http.send({ method: 'GET', origin: this.origin, path: `/files?${q}`, headers: this.headers(user), timeoutMs: 0 });
    if (res.status >= 400) {
      const e = await readError(res);
      throw this.fileError(res.status, JSON.stringify({ code: e.code, message: e.message }), filePath);
    }
    const declared = Number(res.headers['content-length'] ?? Number.NaN);
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.body.destroy();
      throw tooLarge(filePath, maxBytes);
    }
    let seen = 0;
    res.body.on('data', (c: Buffer) => {
      seen += c.length;
      if (seen > maxBytes) res.body.destroy(tooLarge(filePath, maxBytes));
    });
    return res.body;
  }

  private fileError(status: number, text: string, filePath: string): AppError {
    if (status === 404) return new AppError('not_found', `${filePath} does not exist in ${this.what()}`);
    if (status === 400) return new AppError('validation', `${filePath} cannot be read or written as a file in ${this.what()}`);
    return this.rpcError(status, text);
  }

  async listDir(dir: string, user = this.user): Promise<EnvdEntry[]> {
    try {
      const r = await this.unary<{ entries?: RawEntry[] }>('filesystem.Filesystem/ListDir', { path: dir, depth: 1 }, user);
      return (r.entries ?? []).map(toEntry);
    } catch (e) {
      if (hasCode(e, 'sandbox_not_found')) throw new AppError('not_found', `${dir} does not exist in ${this.what()}`);
      throw e;
    }
  }
}

interface RawEntry {
  name?: string;
  path?: string;
  type?: string;
  size?: string | number;
  modifiedTime?: string;
  symlinkTarget?: string | null;
}

function toEntry(e: RawEntry): EnvdEntry {
  const type = e.symlinkTarget
    ? 'symlink'
    : e.type === 'FILE_TYPE_FILE'
      ? 'file'
      : e.type === 'FILE_TYPE_DIRECTORY'
        ? 'dir'
        : e.type === 'FILE_TYPE_SYMLINK'
          ? 'symlink'
          : 'other';
  const modified = e.modifiedTime ? new Date(e.modifiedTime) : undefined;
  return {
    name: e.name ?? path.basename(e.path ?? ''),
    path: e.path ?? '',
    type,
    size: Number(e.size ?? 0) || 0,
    ...(modified && !Number.isNaN(modified.getTime()) ? { modifiedAt: modified } : {}),
  };
}

function tooLarge(filePath: string, maxBytes: number): AppError {
  return new AppError('sandbox_file_too_large', `${filePath} is larger than the ${maxBytes} byte limit`, { details: { maxBytes } });
}

function parseEvent(m: unknown): ProcessEvent | undefined {
  const ev = (m as { event?: Record<string, Record<string, unknown>> }).event;
  if (!ev) return undefined;
  if (ev.start) return { type: 'start', pid: Number(ev.start.pid) };
  if (ev.data) {
    const d = ev.data as { stdout?: string; stderr?: string; pty?: string };
    const stream = d.stdout !== undefined ? 'stdout' : d.stderr !== undefined ? 'stderr' : 'pty';
    return { type: 'data', stream, data: Buffer.from(d[stream] ?? '', 'base64') };
  }
  if (ev.end) {
    const e = ev.end as { exitCode?: number; status?: string; error?: string };
    return { type: 'end', exitCode: Number(e.exitCode ?? 0), ...(e.status ? { status: e.status } : {}), ...(e.error ? { error: e.error } : {}) };
  }
  if (ev.keepalive) return { type: 'keepalive' };
  return undefined;
}
