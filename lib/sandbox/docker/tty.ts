// An interactive exec with a TTY for the browser terminal: one raw duplex stream (a TTY exec is
// not multiplexed), resize after start, the exit code once the shell ends. The engine cannot
// re-attach to an exec, so every open is a fresh shell.
import type { Duplex } from 'node:stream';
import { type DockerConnection, toAppError } from './connection';
import { timedArgv, validateExec } from './exec';

export interface TtyOptions {
  /** Defaults to bash when the image has it, else sh, under the control kit. */
  argv?: string[];
  env?: Record<string, string>;
  cwd?: string;
  user?: string;
  cols?: number;
  rows?: number;
}

export interface TtySession {
  execId: string;
  stream: Duplex;
  resize(cols: number, rows: number): Promise<void>;
  /** The shell's exit code, or null while it still runs. */
  exitCode(): Promise<number | null>;
}

const DEFAULT_SHELL = timedArgv({ argv: ['sh', '-c', 'if command -v bash >/dev/null 2>&1; then exec bash; else exec sh; fi'], timeoutMs: 0 });

function clamp(n: number | undefined, fallback: number): number {
  if (n === undefined || !Number.isFinite(n)) return fallback;
  return Math.min(1000, Math.max(1, Math.floor(n)));
}

export async function openTty(conn: DockerConnection, id: string, opts: TtyOptions = {}): Promise<TtySession> {
  const argv = opts.argv ?? DEFAULT_SHELL;
  validateExec({ argv, env: opts.env, cwd: opts.cwd, user: opts.user, timeoutMs: 1, maxOutputBytes: 0 });
  const cols = clamp(opts.cols, 80);
  const rows = clamp(opts.rows, 24);
  const env = { TERM: 'xterm-256color', LANG: 'C.UTF-8', ...(opts.env ?? {}) };
  let execId: string;
  try {
    const exec = await conn.api.getContainer(id).exec({
      Cmd: argv,
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: true,
      Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
      ...(opts.cwd ? { WorkingDir: opts.cwd } : {}),
      ...(opts.user ? { User: opts.user } : {}),
    });
    execId = exec.id;
  } catch (e) {
    throw toAppError(e, conn.endpoint, `terminal in ${id}`);
  }
  let stream: Duplex;
  try {
    stream = (await conn.stream.getExec(execId).start({ hijack: true, stdin: true, Tty: true })) as unknown as Duplex;
  } catch (e) {
    throw toAppError(e, conn.endpoint, `terminal in ${id}`);
  }
  const session: TtySession = {
    execId,
    stream,
    async resize(c: number, r: number) {
      // Fails once the exec has ended; nothing to resize then.
      await conn.api
        .getExec(execId)
        .resize({ w: clamp(c, 80), h: clamp(r, 24) })
        .catch(() => {});
    },
    async exitCode() {
      const info = await conn.api.getExec(execId).inspect();
      return info.Running ? null : info.ExitCode;
    },
  };
  await session.resize(cols, rows);
  return session;
}
