// A terminal shell in an E2B or CubeSandbox sandbox: one envd PTY process, its output read from the
// streaming Start call, input and resize as unary calls on its pid. Killing the pid alone leaves
// the shell's background jobs running, so the shell carries the per-session marker in its env and
// the end runs the same marker sweep as the Docker terminal through a normal envd exec.
import { AppError, hasCode } from '@/lib/core/errors';
import type { ExecRequest, ExecResult } from '@/lib/sandbox/backend';
import type { ProcessEvent, StartProcess } from '@/lib/sandbox/e2b/envd';
import { TERMINAL_ID_ENV, terminalKillArgv } from './marker-kill';
import type { PtyOpenRequest, TerminalPty } from './pty';

/** The envd calls a terminal makes on its shell process. */
export interface EnvdPty {
  start(p: StartProcess, opts?: { signal?: AbortSignal }): AsyncGenerator<ProcessEvent>;
  sendInput(pid: number, data: Buffer, pty?: boolean): Promise<unknown>;
  resize(pid: number, cols: number, rows: number): Promise<unknown>;
  sendSignal(pid: number, signal?: 'SIGNAL_SIGKILL' | 'SIGNAL_SIGTERM'): Promise<unknown>;
}

/** The part of the E2B-protocol backend a terminal uses. */
export interface E2bTerminalHost {
  envd(id: string, signal?: AbortSignal): Promise<EnvdPty>;
  exec(id: string, req: ExecRequest): Promise<ExecResult>;
  /** Extends the sandbox's lifetime (the control plane ends it on its own timer otherwise). */
  refresh?(id: string, seconds: number): Promise<unknown>;
}

/** While a terminal is open its sandbox is kept alive: every minute, five more minutes. */
const KEEPALIVE_EVERY_MS = 60_000;
const KEEPALIVE_SECONDS = 300;

// Started through sh so that a template without bash still gets a shell; bash as a login shell
// picks up the template's profile (PATH of installed tools), as E2B's own terminal does.
const SHELL: Pick<StartProcess, 'cmd' | 'args'> = {
  cmd: '/bin/sh',
  args: ['-c', 'if command -v bash >/dev/null 2>&1; then exec bash -l; else exec sh; fi'],
};

// envd reports a process ended by a signal as exit code -1 with Go's status text.
const SIGNALS: Record<string, number> = { hangup: 1, interrupt: 2, killed: 9, terminated: 15 };

function exitCodeOf(ev: Extract<ProcessEvent, { type: 'end' }>): number | null {
  if (ev.exitCode >= 0) return ev.exitCode;
  const sig = /^signal: (\w+)/.exec(ev.status ?? '')?.[1];
  if (!sig) return null;
  const n = /^\d+$/.test(sig) ? Number(sig) : SIGNALS[sig];
  return n === undefined ? null : 128 + n;
}

function clamp(n: number, fallback: number): number {
  return Number.isFinite(n) ? Math.min(1000, Math.max(1, Math.floor(n))) : fallback;
}

export async function openE2bPty(host: E2bTerminalHost, req: PtyOpenRequest): Promise<TerminalPty> {
  const envd = await host.envd(req.sandboxId);
  const stream = new AbortController();
  const envs = { TERM: 'xterm-256color', LANG: 'C.UTF-8', ...req.env, [TERMINAL_ID_ENV]: req.sessionId };
  const events = envd.start({ ...SHELL, envs, pty: { cols: clamp(req.cols, 80), rows: clamp(req.rows, 24) } }, { signal: stream.signal });

  let pid: number | undefined;
  try {
    for (let next = await events.next(); !next.done; next = await events.next()) {
      if (next.value.type === 'start') {
        pid = next.value.pid;
        break;
      }
    }
  } catch (e) {
    stream.abort();
    throw e;
  }
  if (pid === undefined) {
    stream.abort();
    throw new AppError('sandbox_error', `The terminal shell in sandbox ${req.sandboxId} ended before it started`);
  }
  const shellPid = pid;

  let dataCb: ((bytes: Buffer) => void) | null = null;
  const early: Buffer[] = [];
  let exitCb: ((code: number | null) => void) | null = null;
  let exited = false;
  let exitCode: number | null = null;
  // While paused the stream is not read, so envd's output backs up on the connection, not in memory.
  let paused: Promise<void> | null = null;
  let unpause = () => {};

  const pump = async () => {
    let code: number | null = null;
    try {
      for await (const ev of events) {
        if (paused) await paused;
        if (ev.type === 'data') {
          if (dataCb) dataCb(ev.data);
          else early.push(ev.data);
        } else if (ev.type === 'end') code = exitCodeOf(ev);
      }
    } catch {
      // A dropped stream (aborted by kill, or the sandbox gone): the code stays what was seen.
    }
    exited = true;
    exitCode = code;
    clearInterval(keepAlive);
    exitCb?.(code);
  };
  const keepAlive = setInterval(() => {
    if (!exited) void host.refresh?.(req.sandboxId, KEEPALIVE_SECONDS).catch(() => undefined);
  }, KEEPALIVE_EVERY_MS);
  keepAlive.unref();
  void pump();

  // A call racing the shell's end finds no process: its end arrives on the stream, so it is no error.
  const unlessGone = async (call: () => Promise<unknown>) => {
    if (exited) return;
    try {
      await call();
    } catch (e) {
      if (!exited && !hasCode(e, 'sandbox_not_found')) throw e;
    }
  };

  return {
    onData(cb) {
      dataCb = cb;
      for (const b of early.splice(0)) cb(b);
    },
    onExit(cb) {
      exitCb = cb;
      if (exited) cb(exitCode);
    },
    write(bytes) {
      return unlessGone(() => envd.sendInput(shellPid, bytes, true));
    },
    pause() {
      paused ??= new Promise<void>((resolve) => {
        unpause = resolve;
      });
    },
    resume() {
      paused = null;
      unpause();
    },
    resize(cols, rows) {
      return unlessGone(() => envd.resize(shellPid, clamp(cols, 80), clamp(rows, 24)));
    },
    async kill() {
      try {
        await unlessGone(() => envd.sendSignal(shellPid, 'SIGNAL_SIGKILL'));
        const r = await host.exec(req.sandboxId, { argv: terminalKillArgv(req.sessionId), timeoutMs: 20_000, maxOutputBytes: 4096 });
        if (r.exitCode !== 0) throw new AppError('sandbox_error', `terminal processes did not all end (exit ${r.exitCode}): ${r.stderr.slice(0, 200)}`);
      } finally {
        clearInterval(keepAlive);
        paused = null;
        unpause();
        stream.abort();
      }
    },
  };
}
