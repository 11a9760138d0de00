// A terminal shell in a Docker sandbox. The engine cannot signal an exec, and closing the hijacked
// stream leaves the shell running, so every shell carries a per-session marker in its env and the
// end runs a second exec that kills each process bearing the marker and every process of their
// sessions: job control gives each pipeline its own process group, but they all stay in the shell's
// session, and a process that drops the marker with `env -i` stays in it too.
import type { Duplex } from 'node:stream';
import { AppError } from '@/lib/core/errors';
import type { ExecRequest, ExecResult } from '@/lib/sandbox/backend';
import type { TtyOptions, TtySession } from '@/lib/sandbox/docker/tty';
import type { PtyOpenRequest, TerminalPty } from './pty';

export const TERMINAL_ID_ENV = 'SKILLDOCK_TERMINAL_ID';

/** The part of the Docker backend a terminal uses (its openTerminal holds the sandbox's activity lease while the stream is open). */
export interface DockerTerminalHost {
  openTerminal(id: string, opts: TtyOptions): Promise<TtySession>;
  exec(id: string, req: ExecRequest): Promise<ExecResult>;
}

// $1 is the marker value; it is passed as an argument, never spliced into the script. Exit 0: none
// remains; exit 3: some survived 20 rounds.
export const TERMINAL_KILL_SCRIPT = `
mark="${TERMINAL_ID_ENV}=$1"
field() { sed 's/.*) //' "$1/stat" 2>/dev/null | cut -d' ' -f"$2"; }
self=$(field /proc/$$ 4)
round=0
while :; do
  sids=" "; targets=""
  for d in /proc/[0-9]*; do
    if tr '\\0' '\\n' <"$d/environ" 2>/dev/null | grep -qxF "$mark"; then
      targets="$targets \${d#/proc/}"
      s=$(field "$d" 4)
      case "$s" in ""|0|1|"$self") ;; *) sids="$sids$s " ;; esac
    fi
  done
  for d in /proc/[0-9]*; do
    s=$(field "$d" 4)
    case "$sids" in *" $s "*) targets="$targets \${d#/proc/}" ;; esac
  done
  [ -z "$targets" ] && exit 0
  round=$((round + 1))
  [ "$round" -gt 20 ] && exit 3
  kill -KILL $targets 2>/dev/null
  sleep 0.1 2>/dev/null || sleep 1
done
`;

/** The exec that kills every process of one terminal session (run with a normal, non-TTY exec). */
export function terminalKillArgv(sessionId: string): string[] {
  return ['sh', '-c', TERMINAL_KILL_SCRIPT, 'skilldock-terminal-kill', sessionId];
}

export async function openDockerPty(host: DockerTerminalHost, req: PtyOpenRequest): Promise<TerminalPty> {
  const env = { ...req.env, [TERMINAL_ID_ENV]: req.sessionId };
  const tty = await host.openTerminal(req.sandboxId, { env, cols: req.cols, rows: req.rows });
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
        argv: terminalKillArgv(req.sessionId),
        timeoutMs: 20_000,
        maxOutputBytes: 4096,
      });
      stream.destroy();
      if (r.exitCode !== 0) throw new AppError('sandbox_error', `terminal processes did not all end (exit ${r.exitCode}): ${r.stderr.slice(0, 200)}`);
    },
  };
}
