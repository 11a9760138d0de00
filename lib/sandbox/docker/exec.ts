// One command in a running container: an argument vector under the control kit's `run` (from its
// read-only mount, never a program found by name in the sandbox), which kills the command and
// everything it started at its end or deadline (cancelling the HTTP request does not stop the
// process; this does); stdout and stderr demultiplexed and capped per stream, stdin written then closed.
import type { Duplex } from 'node:stream';
import { Writable } from 'node:stream';
import { AppError } from '@/lib/core/errors';
import type { ExecRequest, ExecResult } from '../backend';
import { KIT_BIN } from '../kit/build';
import { type DockerConnection, toAppError } from './connection';

const MAX_ARGS = 4096;
const MAX_ARGV_BYTES = 128 * 1024;
const MAX_TIMEOUT_MS = 24 * 3600 * 1000;
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
/** How long after the in-container deadline we stop waiting for the engine to close the stream. */
const STREAM_GRACE_MS = 10_000;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function invalid(field: string, message: string): AppError {
  return new AppError('validation', `exec ${field}: ${message}`, { issues: [{ path: field, message }] });
}

/** Refuses what the engine must never see: empty argv, NUL bytes, unbounded sizes, relative cwd. */
export function validateExec(req: ExecRequest): void {
  if (!Array.isArray(req.argv) || req.argv.length === 0) throw invalid('argv', 'must be a non-empty array of strings');
  if (req.argv.length > MAX_ARGS) throw invalid('argv', `at most ${MAX_ARGS} arguments`);
  let bytes = 0;
  for (const a of req.argv) {
    if (typeof a !== 'string') throw invalid('argv', 'every argument must be a string');
    if (a.includes('\0')) throw invalid('argv', 'arguments cannot contain NUL');
    bytes += Buffer.byteLength(a) + 1;
  }
  if (bytes > MAX_ARGV_BYTES) throw invalid('argv', `at most ${MAX_ARGV_BYTES} bytes in total`);
  if (!req.argv[0]) throw invalid('argv', 'the program name cannot be empty');
  if (!Number.isInteger(req.timeoutMs) || req.timeoutMs < 1 || req.timeoutMs > MAX_TIMEOUT_MS)
    throw invalid('timeoutMs', `an integer in [1, ${MAX_TIMEOUT_MS}]`);
  if (!Number.isInteger(req.maxOutputBytes) || req.maxOutputBytes < 0 || req.maxOutputBytes > MAX_OUTPUT_BYTES)
    throw invalid('maxOutputBytes', `an integer in [0, ${MAX_OUTPUT_BYTES}]`);
  for (const [k, v] of Object.entries(req.env ?? {})) {
    if (!ENV_NAME.test(k)) throw invalid('env', `invalid variable name ${JSON.stringify(k.slice(0, 60))}`);
    if (typeof v !== 'string' || v.includes('\0')) throw invalid('env', `${k} must be a string without NUL`);
  }
  if (req.cwd !== undefined && (!req.cwd.startsWith('/') || req.cwd.includes('\0'))) throw invalid('cwd', 'an absolute path');
  if (req.user !== undefined && !/^[a-zA-Z0-9_.-]{1,64}(:[a-zA-Z0-9_.-]{1,64})?$/.test(req.user)) throw invalid('user', 'a user name or uid[:gid]');
}

/**
 * The argv the engine runs: the caller's, under the kit's deadline and process-tree cleanup. `id`
 * names the run, so `killArgv(id)` can end it and all it started from another exec.
 */
export function timedArgv(req: Pick<ExecRequest, 'argv' | 'timeoutMs'>, id?: string): string[] {
  const deadline = req.timeoutMs > 0 ? ['-t', String(Math.max(1, Math.ceil(req.timeoutMs / 1000)))] : [];
  return [KIT_BIN, 'run', ...deadline, ...(id ? ['-i', id] : []), '--', ...req.argv];
}

/** The exec that ends the `timedArgv(…, id)` run and every process below it. Exit 0: none remains. */
export function killArgv(id: string): string[] {
  return [KIT_BIN, 'kill', id];
}

/** Keeps the first `cap` bytes written to it (the rest counted as truncated, not kept). */
export class CappedSink extends Writable {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  truncated = false;
  constructor(private readonly cap: number) {
    super();
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void): void {
    const room = this.cap - this.kept;
    if (room > 0) {
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      this.chunks.push(Buffer.from(part));
      this.kept += part.length;
    }
    if (chunk.length > room) this.truncated = true;
    cb();
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

export async function runExec(conn: DockerConnection, id: string, req: ExecRequest): Promise<ExecResult> {
  validateExec(req);
  const started = Date.now();
  const hasStdin = req.stdin !== undefined;
  let execId: string;
  try {
    const exec = await conn.api.getContainer(id).exec({
      Cmd: timedArgv(req),
      AttachStdin: hasStdin,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      Env: Object.entries(req.env ?? {}).map(([k, v]) => `${k}=${v}`),
      ...(req.cwd ? { WorkingDir: req.cwd } : {}),
      ...(req.user ? { User: req.user } : {}),
    });
    execId = exec.id;
  } catch (e) {
    throw toAppError(e, conn.endpoint, `exec in ${id}`);
  }
  const exec = conn.stream.getExec(execId);
  let socket: Duplex;
  try {
    socket = (await exec.start({ hijack: true, stdin: hasStdin, Detach: false, Tty: false })) as unknown as Duplex;
  } catch (e) {
    throw toAppError(e, conn.endpoint, `exec in ${id}`);
  }
  const out = new CappedSink(req.maxOutputBytes);
  const err = new CappedSink(req.maxOutputBytes);
  conn.stream.modem.demuxStream(socket, out, err);
  let gaveUp = false;
  await new Promise<void>((resolve, reject) => {
    const guard = setTimeout(() => {
      gaveUp = true;
      socket.destroy();
    }, req.timeoutMs + STREAM_GRACE_MS);
    guard.unref();
    const onAbort = () => {
      clearTimeout(guard);
      socket.destroy();
      reject(new AppError('invalid_state', 'exec cancelled (the process keeps running until its timeout)'));
    };
    if (req.signal?.aborted) return onAbort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(guard);
      req.signal?.removeEventListener('abort', onAbort);
      resolve();
    };
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', (e) => {
      if (gaveUp) return done();
      clearTimeout(guard);
      reject(toAppError(e, conn.endpoint, `exec in ${id}`));
    });
    if (hasStdin) {
      socket.write(typeof req.stdin === 'string' ? Buffer.from(req.stdin) : (req.stdin as Buffer));
      socket.end();
    }
  });
  let exitCode: number;
  try {
    const info = await conn.api.getExec(execId).inspect();
    exitCode = info.Running || info.ExitCode === null ? 137 : info.ExitCode;
  } catch (e) {
    throw toAppError(e, conn.endpoint, `exec in ${id}`);
  }
  return {
    exitCode,
    stdout: out.text(),
    stderr: err.text(),
    truncated: out.truncated || err.truncated,
    timedOut: gaveUp || exitCode === 124 || exitCode === 137,
    durationMs: Date.now() - started,
  };
}
