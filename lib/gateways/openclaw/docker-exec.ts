// One program in an OpenClaw gateway's container, through the Engine API's exec: an argument
// array (never a shell string), the caller's environment, stdin written then closed, stdout and
// stderr demultiplexed and capped, and a deadline. Cancelling an exec's HTTP stream does not stop
// its process and the API has no exec kill, so at the deadline Skilldock signals the process itself:
// the exec carries a random token in its environment, the container's `top` lists its processes
// (host PIDs), and each one whose /proc/<pid>/environ holds that token gets SIGKILL. That works when
// Skilldock shares the engine's PID namespace (a local engine, run as root); elsewhere the process
// may outlive the deadline, and the error says so.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import type { Duplex } from 'node:stream';
import type Docker from 'dockerode';
import { AppError } from '../../core/errors';
import { engineUnavailable } from '../../docker/errors';
import { engineMessage, statusOf } from '../../sandbox/docker/connection';
import { CappedSink } from '../../sandbox/docker/exec';

export interface GatewayDocker {
  /** For messages: the engine's address. */
  endpoint: string;
  /** Calls bounded by the client's own timeout. */
  api: Docker;
  /** Exec and archive streams, bounded by their own deadlines. */
  stream: Docker;
}

export interface ContainerExec {
  argv: string[];
  env?: Record<string, string>;
  stdin?: string;
  timeoutMs: number;
  maxOutputBytes: number;
}

export interface ContainerExecResult {
  code: number;
  stdout: string;
  stderr: string;
}

const TOKEN_VAR = 'SKILLDOCK_EXEC_TOKEN';
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A failed engine call as the error an operator can act on: gone, stopped, unreachable, or the engine's words. */
export function gatewayEngineError(e: unknown, d: GatewayDocker, container: string, what: string): AppError {
  if (e instanceof AppError) return e;
  const status = statusOf(e);
  if (status === undefined) return engineUnavailable(e, d.endpoint);
  const said = engineMessage(e);
  if (status === 404 && /no such container/i.test(said))
    return new AppError('not_found', `The gateway container ${container} does not exist on the Docker engine at ${d.endpoint}.`, {
      details: { container, endpoint: d.endpoint },
      hint: "The container was removed or renamed: start the gateway again, or change the gateway's container setting.",
      cause: e,
    });
  if (status === 409 && /is not running|is paused|is restarting/i.test(said))
    return new AppError('invalid_state', `The gateway container ${container} is not running (${said}).`, {
      details: { container, endpoint: d.endpoint },
      hint: 'Start the gateway container, then try again.',
      cause: e,
    });
  return new AppError('upstream_error', `${what} in the gateway container ${container}: ${said}`, { details: { container, status }, cause: e });
}

const KILL_WAIT_MS = 5000;

/** SIGKILLs the container's processes whose environment holds `token`; true once the exec has ended. */
async function killByToken(d: GatewayDocker, container: string, execId: string, token: string): Promise<boolean> {
  let pids: number[];
  try {
    const top = (await d.api.getContainer(container).top({ ps_args: '-o pid' })) as { Titles?: string[]; Processes?: string[][] };
    const col = (top.Titles ?? []).indexOf('PID');
    pids = (top.Processes ?? []).map((row) => Number(row[col])).filter((n) => Number.isInteger(n) && n > 1);
  } catch {
    return false;
  }
  const needle = Buffer.from(`${TOKEN_VAR}=${token}\0`);
  let killed = 0;
  for (const pid of pids) {
    const environ = await fs.readFile(`/proc/${pid}/environ`).catch(() => null);
    if (!environ?.includes(needle)) continue;
    try {
      process.kill(pid, 'SIGKILL');
      killed += 1;
    } catch {
      /* already gone, or not ours to signal */
    }
  }
  if (killed === 0) return false;
  for (const until = Date.now() + KILL_WAIT_MS; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const info = await d.api
      .getExec(execId)
      .inspect()
      .catch(() => null);
    if (info && !info.Running) return true;
  }
  return false;
}

function checkRequest(req: ContainerExec): void {
  if (req.argv.length === 0 || req.argv.some((a) => typeof a !== 'string' || a.includes('\0')) || !req.argv[0])
    throw new AppError('validation', 'A gateway command needs a program and arguments without NUL bytes.');
  for (const [k, v] of Object.entries(req.env ?? {}))
    if (!ENV_NAME.test(k) || v.includes('\0')) throw new AppError('validation', `The environment variable ${k.slice(0, 60)} is not valid.`);
}

/** Runs `argv` in the container as its default user; a non-zero exit is the caller's to judge. */
export async function execInContainer(d: GatewayDocker, container: string, req: ContainerExec): Promise<ContainerExecResult> {
  checkRequest(req);
  const token = randomBytes(12).toString('hex');
  const hasStdin = req.stdin !== undefined;
  const env = { ...(req.env ?? {}), [TOKEN_VAR]: token };
  let execId: string;
  let socket: Duplex;
  try {
    const exec = await d.api.getContainer(container).exec({
      Cmd: req.argv,
      AttachStdin: hasStdin,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
      Env: Object.entries(env).map(([k, v]) => `${k}=${v}`),
    });
    execId = exec.id;
    socket = (await d.stream.getExec(execId).start({ hijack: true, stdin: hasStdin, Detach: false, Tty: false })) as unknown as Duplex;
  } catch (e) {
    throw gatewayEngineError(e, d, container, `Running ${req.argv[0]}`);
  }
  const out = new CappedSink(req.maxOutputBytes);
  const err = new CappedSink(req.maxOutputBytes);
  d.stream.modem.demuxStream(socket, out, err);
  let timedOut = false;
  await new Promise<void>((resolve, reject) => {
    const guard = setTimeout(() => {
      timedOut = true;
      socket.destroy();
      resolve();
    }, req.timeoutMs);
    const done = () => {
      clearTimeout(guard);
      resolve();
    };
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', (e) => {
      clearTimeout(guard);
      if (timedOut) return resolve();
      reject(gatewayEngineError(e, d, container, `Running ${req.argv[0]}`));
    });
    if (hasStdin) socket.end(Buffer.from(req.stdin as string));
  });
  const what = req.argv.slice(0, 3).join(' ');
  if (timedOut) {
    const stopped = await killByToken(d, container, execId, token);
    throw new AppError('unavailable', `\`${what}\` in the gateway container ${container} gave no answer within ${Math.round(req.timeoutMs / 1000)} s.`, {
      details: { container, stopped },
      hint: stopped
        ? 'It was stopped. Check the gateway container (its load, its state folder) and try again.'
        : 'Skilldock could not stop it (the engine is not on this host, or Skilldock does not run as root): it may still run in the container.',
    });
  }
  let info: { Running: boolean; ExitCode: number | null };
  try {
    info = (await d.api.getExec(execId).inspect()) as { Running: boolean; ExitCode: number | null };
  } catch (e) {
    throw gatewayEngineError(e, d, container, `Running ${req.argv[0]}`);
  }
  return { code: info.Running || info.ExitCode === null ? 137 : info.ExitCode, stdout: out.text(), stderr: err.text() };
}
