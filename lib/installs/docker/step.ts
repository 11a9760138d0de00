// One install step in a maintenance container: an argv under the control kit's deadline, its
// stdout and stderr handed over line by line as they arrive, and a stop that ends it. The engine
// cannot signal an exec, so every step runs as a named kit run and stop() runs `kit kill` on it,
// which ends the step and every process it started.
import { randomBytes } from 'node:crypto';
import type { Duplex, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { AppError } from '@/lib/core/errors';
import { toAppError } from '@/lib/sandbox/docker/connection';
import { killArgv, runExec, timedArgv, validateExec } from '@/lib/sandbox/docker/exec';
import type { Maintenance } from './maintenance';

/** A line longer than this is cut there and ends with "…"; the rest of it is dropped. */
export const MAX_LINE_CHARS = 4000;
/** How long after the in-container deadline we stop waiting for the engine to close the stream. */
const STREAM_GRACE_MS = 10_000;
const KILL_TIMEOUT_MS = 20_000;

export type StepStream = 'stdout' | 'stderr';

export interface InstallStep {
  argv: string[];
  env?: Record<string, string>;
  cwd?: string;
  timeoutMs: number;
}

export interface StepResult {
  exitCode: number;
  /** The in-container timer (or the stream guard) ended it. */
  timedOut: boolean;
  /** stop() ended it. */
  stopped: boolean;
  durationMs: number;
}

export interface RunningStep {
  done: Promise<StepResult>;
  /** Ends the step's processes; `done` then settles with `stopped: true`. */
  stop(): Promise<void>;
}

/** Splits one stream into lines (\n, a trailing \r dropped), cutting overlong ones. */
class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private line = '';
  private cut = false;
  constructor(
    private readonly stream: StepStream,
    private readonly emit: (stream: StepStream, line: string) => void,
  ) {}

  write(chunk: Buffer): boolean {
    this.feed(this.decoder.write(chunk));
    return true;
  }

  end(): void {
    this.feed(this.decoder.end());
    if (this.line || this.cut) this.flush();
  }

  private feed(text: string): void {
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      this.add(text.slice(start, nl));
      this.flush();
      start = nl + 1;
    }
    this.add(text.slice(start));
  }

  private add(part: string): void {
    if (this.cut || !part) return;
    this.line += part;
    if (this.line.length > MAX_LINE_CHARS) {
      this.line = this.line.slice(0, MAX_LINE_CHARS);
      this.cut = true;
    }
  }

  private flush(): void {
    const line = this.cut ? `${this.line}…` : this.line.endsWith('\r') ? this.line.slice(0, -1) : this.line;
    this.line = '';
    this.cut = false;
    this.emit(this.stream, line);
  }
}

export function runStep(m: Maintenance, step: InstallStep, onLine: (stream: StepStream, line: string) => void): RunningStep {
  validateExec({ ...step, maxOutputBytes: 0 });
  if (m.closed) throw new AppError('invalid_state', 'the maintenance container is closed');
  const marker = `install-${m.runId}-${randomBytes(8).toString('hex')}`;
  let stopRequested = false;
  let running = false;
  let finished = false;
  let killing: Promise<void> | null = null;
  let callbackError: unknown = null;
  const emit = (stream: StepStream, line: string) => {
    try {
      onLine(stream, line);
    } catch (e) {
      callbackError ??= e;
    }
  };

  const kill = (): Promise<void> => {
    killing ??= runExec(m.conn, m.containerId, { argv: killArgv(marker), timeoutMs: KILL_TIMEOUT_MS, maxOutputBytes: 4096 }).then((r) => {
      if (r.exitCode !== 0) throw new AppError('sandbox_error', `install step processes did not all end (exit ${r.exitCode}): ${r.stderr.slice(0, 200)}`);
    });
    return killing;
  };

  const execute = async (): Promise<StepResult> => {
    const started = Date.now();
    if (stopRequested) return { exitCode: 137, timedOut: false, stopped: true, durationMs: 0 };
    const what = `install step in ${m.containerId}`;
    let execId: string;
    let socket: Duplex;
    try {
      const exec = await m.conn.api.getContainer(m.containerId).exec({
        Cmd: timedArgv(step, marker),
        AttachStdin: false,
        AttachStdout: true,
        AttachStderr: true,
        Tty: false,
        Env: Object.entries(step.env ?? {}).map(([k, v]) => `${k}=${v}`),
        ...(step.cwd ? { WorkingDir: step.cwd } : {}),
      });
      execId = exec.id;
      socket = (await m.conn.stream.getExec(execId).start({ hijack: true, stdin: false, Detach: false, Tty: false })) as unknown as Duplex;
    } catch (e) {
      throw toAppError(e, m.conn.endpoint, what);
    }
    running = true;
    // A stop that came while the exec was starting: its process exists only now.
    if (stopRequested) void kill().catch(() => {});
    const out = new LineSplitter('stdout', emit);
    const err = new LineSplitter('stderr', emit);
    m.conn.stream.modem.demuxStream(socket, out as unknown as Writable, err as unknown as Writable);
    let gaveUp = false;
    await new Promise<void>((resolve, reject) => {
      const guard = setTimeout(() => {
        gaveUp = true;
        socket.destroy();
      }, step.timeoutMs + STREAM_GRACE_MS);
      guard.unref();
      const done = () => {
        clearTimeout(guard);
        resolve();
      };
      socket.on('end', done);
      socket.on('close', done);
      socket.on('error', (e) => {
        clearTimeout(guard);
        if (gaveUp || stopRequested) return resolve();
        reject(toAppError(e, m.conn.endpoint, what));
      });
    });
    out.end();
    err.end();
    let exitCode: number;
    try {
      const info = await m.conn.api.getExec(execId).inspect();
      exitCode = info.Running || info.ExitCode === null ? 137 : info.ExitCode;
    } catch (e) {
      throw toAppError(e, m.conn.endpoint, what);
    }
    if (callbackError) throw callbackError;
    const stopped = stopRequested && exitCode !== 0;
    return { exitCode, stopped, timedOut: !stopped && (gaveUp || exitCode === 124 || exitCode === 137), durationMs: Date.now() - started };
  };

  const done = execute().finally(() => {
    finished = true;
  });
  return {
    done,
    async stop() {
      stopRequested = true;
      if (running && !finished) await kill();
    },
  };
}
