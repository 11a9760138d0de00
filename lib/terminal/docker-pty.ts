// A terminal shell in a Docker sandbox. The engine cannot signal an exec, and closing the hijacked
// stream leaves the shell running, so the shell runs under the control kit's `run -i <session>`
// (from its read-only mount): every process it starts stays below the kit however it detaches
// (`setsid`, double forks, `env -i`), and the end runs `kit kill <session>` in a second exec.
import type { Duplex } from 'node:stream';
import { AppError } from '@/lib/core/errors';
import type { ExecRequest, ExecResult } from '@/lib/sandbox/backend';
import { killArgv, timedArgv } from '@/lib/sandbox/docker/exec';
import type { TtyOptions, TtySession } from '@/lib/sandbox/docker/tty';
import { TERMINAL_ID_ENV } from './marker-kill';
import type { PtyOpenRequest, TerminalPty } from './pty';

/** The part of the Docker backend a terminal uses (its openTerminal holds the sandbox's activity lease while the stream is open). */
export interface DockerTerminalHost {
  openTerminal(id: string, opts: TtyOptions): Promise<TtySession>;
  exec(id: string, req: ExecRequest): Promise<ExecResult>;
}

/** The shell a terminal runs: bash when the image has it, else sh, under the kit's `run -i`. */
export function terminalShellArgv(sessionId: string): string[] {
  return timedArgv({ argv: ['sh', '-c', 'if command -v bash >/dev/null 2>&1; then exec bash; else exec sh; fi'], timeoutMs: 0 }, terminalRunId(sessionId));
}

const terminalRunId = (sessionId: string) => `terminal-${sessionId}`;

export async function openDockerPty(host: DockerTerminalHost, req: PtyOpenRequest): Promise<TerminalPty> {
  const env = { ...req.env, [TERMINAL_ID_ENV]: req.sessionId };
  const tty = await host.openTerminal(req.sandboxId, { argv: terminalShellArgv(req.sessionId), env, cols: req.cols, rows: req.rows });
  const stream: Duplex = tty.stream;
  let exitCb: ((code: number | null) => void) | null = null;
  let exited = false;
  let exitCode: number | null = null;
  const onGone = async () => {
    if (exited) return;
    exited = true;
    exitCode = await tty.exitCode().catch(() => null);
    exitCb?.(exitCode);
  };
  stream.once('end', () => void onGone());
  stream.once('close', () => void onGone());
  stream.on('error', () => void onGone());

  return {
    onData(cb) {
      stream.on('data', (c: Buffer) => cb(c));
    },
    onExit(cb) {
      exitCb = cb;
      if (exited) cb(exitCode);
    },
    write(bytes) {
      if (exited || stream.destroyed) return Promise.resolve();
      return new Promise((resolve) => stream.write(bytes, () => resolve()));
    },
    pause() {
      stream.pause();
    },
    resume() {
      stream.resume();
    },
    resize(cols, rows) {
      return exited ? Promise.resolve() : tty.resize(cols, rows);
    },
    async kill() {
      const r = await host.exec(req.sandboxId, {
        argv: killArgv(terminalRunId(req.sessionId)),
        timeoutMs: 20_000,
        maxOutputBytes: 4096,
      });
      stream.destroy();
      if (r.exitCode !== 0) throw new AppError('sandbox_error', `terminal processes did not all end (exit ${r.exitCode}): ${r.stderr.slice(0, 200)}`);
    },
  };
}
