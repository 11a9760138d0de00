// Docker engine clients: the local socket, another unix:// path, or tcp:// with TLS certificates
// read from a directory. One client per (host, certificate directory), so every config pointing
// at the same engine shares its sockets.
import fs from 'node:fs';
import path from 'node:path';
import Docker from 'dockerode';
import { AppError } from '@/lib/core/errors';
import { dockerEndpoint } from '@/lib/docker/client';
import { engineUnavailable } from '@/lib/docker/errors';
export const API_TIMEOUT_MS = 30_000;
const TLS_FILES = ['ca.pem', 'cert.pem', 'key.pem'] as const;

export interface DockerConnectionOptions {
  /** `unix:///abs/path` or `tcp://host:port`; the engine Skilldock was started with when absent. */
  host?: string;
  /** Directory holding ca.pem, cert.pem and key.pem; required for tcp://. */
  tlsCertPath?: string;
  apiTimeoutMs?: number;
  /** The service's clients to reuse (their sockets); absent: new clients for this caller alone. */
  clients?: DockerClients;
}

export interface DockerConnection {
  endpoint: string;
  /** Bounded per call: every request not answered within the API timeout fails. */
  api: Docker;
  /** No socket timeout: exec and archive streams, bounded by their own deadlines. */
  stream: Docker;
  /** The control kit's volume on this engine, once filled through these clients (see kit/volume.ts). */
  kit?: Promise<{ name: string; version: string }>;
}

type Target = { socketPath: string } | { host: string; port: number };

function parseHost(host: string): Target {
  if (host.startsWith('unix://')) {
    const socketPath = host.slice('unix://'.length);
    if (!path.isAbsolute(socketPath) || socketPath.includes('\0')) {
      throw new AppError('validation', 'a unix:// Docker host needs an absolute socket path', { issues: [{ path: 'host', message: 'unix:///abs/path' }] });
    }
    return { socketPath };
  }
  const m = /^tcp:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5})\/?$/i.exec(host);
  const port = m ? Number(m[2]) : 0;
  if (!m || port < 1 || port > 65535) {
    throw new AppError('validation', `Docker host must be unix:///abs/path or tcp://host:port, not ${JSON.stringify(host.slice(0, 100))}`, {
      issues: [{ path: 'host', message: 'unix:///abs/path or tcp://host:port' }],
    });
  }
  return { host: (m[1] as string).replace(/^\[|\]$/g, ''), port };
}

function readTls(dir: string | undefined): { ca: Buffer; cert: Buffer; key: Buffer } {
  if (!dir) {
    throw new AppError('validation', 'a tcp:// Docker host needs a TLS certificate directory', {
      issues: [{ path: 'tlsCertPath', message: 'required for tcp://' }],
      hint: 'point tlsCertPath at a directory with ca.pem, cert.pem and key.pem (what `docker context` or DOCKER_CERT_PATH uses)',
    });
  }
  const missing = TLS_FILES.filter((f) => !fs.existsSync(path.join(/*turbopackIgnore: true*/ dir, f)));
  if (missing.length > 0) {
    throw new AppError('validation', `TLS files missing in ${dir}: ${missing.join(', ')}`, {
      issues: [{ path: 'tlsCertPath', message: `missing ${missing.join(', ')}` }],
      hint: 'the directory must hold ca.pem, cert.pem and key.pem readable by the Skilldock user',
    });
  }
  try {
    const [ca, cert, key] = TLS_FILES.map((f) => fs.readFileSync(path.join(/*turbopackIgnore: true*/ dir, f))) as [Buffer, Buffer, Buffer];
    return { ca, cert, key };
  } catch (e) {
    throw new AppError('validation', `TLS files in ${dir} are not readable: ${(e as Error).message}`, {
      issues: [{ path: 'tlsCertPath', message: 'not readable' }],
      cause: e,
    });
  }
}

function build(endpoint: string, tlsCertPath: string | undefined, timeout: number | undefined): Docker {
  const target = parseHost(endpoint);
  const base = timeout ? { timeout } : {};
  if ('socketPath' in target) return new Docker({ socketPath: target.socketPath, ...base });
  return new Docker({ host: target.host, port: target.port, protocol: 'https', ...readTls(tlsCertPath), ...base });
}

/**
 * What an empty config host means: the engine Skilldock itself was started with (DOCKER_HOST, its
 * TLS files in DOCKER_CERT_PATH, else the local socket), the one Settings shows.
 */
export function serverEngine(env: Record<string, string | undefined> = process.env): { host: string; tlsCertPath?: string } {
  const host = dockerEndpoint(env);
  return host.startsWith('tcp://') && env.DOCKER_CERT_PATH ? { host, tlsCertPath: env.DOCKER_CERT_PATH } : { host };
}

/** One service's engine clients by endpoint, TLS folder and timeout (built once by the composition root). */
export class DockerClients {
  private readonly byKey = new Map<string, DockerConnection>();

  get(endpoint: string, tlsCertPath: string | undefined, timeout: number): DockerConnection {
    const key = JSON.stringify([endpoint, tlsCertPath ?? '', timeout]);
    let c = this.byKey.get(key);
    if (!c) this.byKey.set(key, (c = newConnection(endpoint, tlsCertPath, timeout)));
    return c;
  }
}

const newConnection = (endpoint: string, tlsCertPath: string | undefined, timeout: number): DockerConnection => ({
  endpoint,
  api: build(endpoint, tlsCertPath, timeout),
  stream: build(endpoint, tlsCertPath, undefined),
});

/** The clients for an engine (the service's shared ones when `opts.clients`); bad hosts or TLS directories are `validation` errors. */
export function dockerConnection(opts: DockerConnectionOptions = {}): DockerConnection {
  const { host: endpoint, tlsCertPath } = opts.host ? { host: opts.host, tlsCertPath: opts.tlsCertPath } : serverEngine();
  const timeout = opts.apiTimeoutMs ?? API_TIMEOUT_MS;
  return opts.clients ? opts.clients.get(endpoint, tlsCertPath, timeout) : newConnection(endpoint, tlsCertPath, timeout);
}

/** Engine replies (4xx/5xx) carry a statusCode; everything else is a transport problem. */
export function statusOf(e: unknown): number | undefined {
  const s = (e as { statusCode?: unknown })?.statusCode;
  return typeof s === 'number' ? s : undefined;
}

/** The engine's own message of a failed call (`{"message": …}`), or the error's. */
export function engineMessage(e: unknown): string {
  const j = (e as { json?: { message?: unknown } })?.json;
  if (j && typeof j.message === 'string') return j.message;
  return (e as Error)?.message ?? String(e);
}

/** Maps a failed engine call to the AppError every sandbox backend uses for the same situation. */
export function toAppError(e: unknown, endpoint: string, what: string): AppError {
  if (e instanceof AppError) return e;
  const status = statusOf(e);
  if (status === undefined) return engineUnavailable(e, endpoint, 'sandbox_unreachable');
  const said = engineMessage(e);
  const msg = `${what}: ${said}`;
  if (status === 404 && /no such image/i.test(said))
    return new AppError('sandbox_template_missing', msg, { hint: 'build or load the image on this engine; sandboxes never pull', cause: e });
  if (status === 404 && /no such container|container/i.test(said)) return new AppError('sandbox_not_found', msg, { cause: e });
  if (status === 404) return new AppError('not_found', msg, { cause: e });
  if (status === 409) return new AppError('conflict', msg, { cause: e });
  if (status === 400) return new AppError('validation', msg, { cause: e });
  return new AppError('sandbox_error', msg, { details: { endpoint, status }, cause: e });
}
