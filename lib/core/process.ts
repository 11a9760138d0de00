import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { childEnv, SECRET_ENV_NAMES } from './child-env';
import { runCritical } from './critical';
import { AppError } from './errors';

export interface RunOptions {
  cwd?: string;
  /** The child's whole environment; default childEnv() (allowlisted, never the server's own env). */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Stop collecting output past this many bytes per stream (the process keeps running). */
  maxOutputBytes?: number;
  signal?: AbortSignal;
  /** Called for each complete output line, as it arrives. */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
  /** Grace period between SIGTERM and SIGKILL when stopping. */
  killGraceMs?: number;
  stdin?: string;
  /** A longer line passed to onLine is cut here (the rest of it dropped); default 64 KiB. */
  maxLineBytes?: number;
  /**
   * A step that must not be interrupted (a system package transaction): while it runs, an abort of
   * `signal` (cancel, shutdown) waits for it to end; only the timeout still stops it. A signal that
   * is already aborted means it never starts.
   */
  critical?: boolean;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  truncated: boolean;
  durationMs: number;
}

const SAFE_COMMAND = /^[A-Za-z0-9_./+-]+$/;

/**
 * Runs a program with an argument array (never a shell). The child leads its own process group,
 * so a timeout or an abort stops it together with everything it started.
 */
export function runProcess(command: string, args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  if (!SAFE_COMMAND.test(command)) {
    return Promise.reject(new AppError('validation', `Refusing to run "${command}": not a plain program path.`));
  }
  if (!opts.critical) return spawnProcess(command, args, opts);
  if (opts.signal?.aborted) {
    return Promise.resolve({ code: null, signal: null, stdout: '', stderr: '', timedOut: false, aborted: true, truncated: false, durationMs: 0 });
  }
  return runCritical(opts.signal, () => spawnProcess(command, args, opts));
}

function safeEnv(env: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  if (!env) return childEnv();
  const copy = { ...env };
  for (const name of SECRET_ENV_NAMES) delete copy[name];
  return copy;
}

function spawnProcess(command: string, args: readonly string[], opts: RunOptions): Promise<RunResult> {
  const maxBytes = opts.maxOutputBytes ?? 1024 * 1024;
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args as string[], {
      cwd: opts.cwd,
      env: safeEnv(opts.env),
      detached: true,
      stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out = { stdout: '', stderr: '' };
    const partial = { stdout: '', stderr: '' };
    let truncated = false;
    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;

    // The group is signalled even when the direct child has exited: a grandchild may still hold the pipes.
    let stopping = false;
    const stopGroup = () => {
      if (child.pid === undefined || stopping) return;
      stopping = true;
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      killTimer = setTimeout(() => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }, opts.killGraceMs ?? 3000);
      killTimer.unref();
    };

    const timer = opts.timeoutMs
      ? setTimeout(() => {
          timedOut = true;
          stopGroup();
        }, opts.timeoutMs)
      : undefined;
    const onAbort = () => {
      aborted = true;
      stopGroup();
    };
    if (opts.signal?.aborted) onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    // One decoder per stream: a multi-byte character split across two chunks is joined, not mangled.
    const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
    const maxLine = opts.maxLineBytes ?? 64 * 1024;
    const dropping = { stdout: false, stderr: false };
    const emitLines = (stream: 'stdout' | 'stderr', text: string) => {
      let from = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
        const piece = text.slice(from, nl);
        from = nl + 1;
        if (dropping[stream]) {
          dropping[stream] = false;
          continue;
        }
        opts.onLine!((partial[stream] + piece).replace(/\r$/, ''), stream);
        partial[stream] = '';
      }
      if (dropping[stream]) return;
      partial[stream] += text.slice(from);
      if (partial[stream].length > maxLine) {
        opts.onLine!(`${partial[stream].slice(0, maxLine)} …[line truncated]`, stream);
        partial[stream] = '';
        dropping[stream] = true;
      }
    };
    const take = (stream: 'stdout' | 'stderr', text: string) => {
      if (!text) return;
      if (out[stream].length < maxBytes) {
        out[stream] += text.slice(0, maxBytes - out[stream].length);
        if (out[stream].length >= maxBytes) truncated = true;
      } else truncated = true;
      if (opts.onLine) emitLines(stream, text);
    };
    child.stdout!.on('data', (chunk: Buffer) => take('stdout', decoders.stdout.write(chunk)));
    child.stderr!.on('data', (chunk: Buffer) => take('stderr', decoders.stderr.write(chunk)));
    if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);

    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      if (err.code === 'ENOENT') reject(new AppError('not_found', `Program "${command}" is not installed or not on PATH.`));
      else reject(new AppError('internal', `Could not start "${command}": ${err.message}`, { cause: err }));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (killTimer) clearTimeout(killTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      take('stdout', decoders.stdout.end());
      take('stderr', decoders.stderr.end());
      if (opts.onLine) {
        if (partial.stdout) opts.onLine(partial.stdout, 'stdout');
        if (partial.stderr) opts.onLine(partial.stderr, 'stderr');
      }
      resolve({ code, signal, ...out, timedOut, aborted, truncated, durationMs: Date.now() - started });
    });
  });
}
