// Processes of the loopback E2B server: `process.Process/Start` runs a real docker exec in the
// sandbox's container and streams its output as Connect envelopes, as envd does.
import type http from 'node:http';
import { PassThrough } from 'node:stream';
import type Docker from 'dockerode';
import { END_STREAM, encodeEnvelope } from '@/lib/sandbox/e2b/connect';
import type { FakeProcess, FakeSandbox } from './e2b-server-types';

/** Runs argv as root and collects its output (the server's own housekeeping). */
export async function execIn(
  sb: { container: Docker.Container },
  argv: string[],
  user = 'root',
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const exec = await sb.container.exec({ Cmd: argv, AttachStdout: true, AttachStderr: true, User: user });
  const stream = await exec.start({ hijack: true, stdin: false });
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks = { out: [] as Buffer[], err: [] as Buffer[] };
  out.on('data', (c: Buffer) => chunks.out.push(c));
  err.on('data', (c: Buffer) => chunks.err.push(c));
  sb.container.modem.demuxStream(stream, out, err);
  await new Promise<void>((r) => stream.on('end', r).on('close', r));
  return { exitCode: await exitCodeOf(exec), stdout: Buffer.concat(chunks.out).toString(), stderr: Buffer.concat(chunks.err).toString() };
}

async function exitCodeOf(exec: Docker.Exec): Promise<number> {
  for (let i = 0; i < 100; i++) {
    const info = await exec.inspect();
    if (!info.Running) return info.ExitCode ?? -1;
    await new Promise((r) => setTimeout(r, 20));
  }
  return -1;
}

export async function killIn(sb: FakeSandbox, p: FakeProcess, signal: 'KILL' | 'TERM'): Promise<void> {
  await execIn(sb, ['/bin/sh', '-c', 'kill -s "$0" "$(cat "$1")"', signal, p.pidFile]);
}

const frame = (event: unknown) => encodeEnvelope({ event });

export async function startProcess(sb: FakeSandbox, req: http.IncomingMessage, res: http.ServerResponse, user: string, body: Buffer): Promise<void> {
  const msg = JSON.parse(body.subarray(5).toString('utf8')) as {
    process: { cmd: string; args?: string[]; envs?: Record<string, string>; cwd?: string };
    pty?: { size?: { cols?: number; rows?: number } };
    stdin?: boolean;
  };
  const pid = sb.nextPid++;
  const pidFile = `/tmp/.envd-pid-${pid}`;
  const config = { cmd: msg.process.cmd, args: msg.process.args ?? [], envs: msg.process.envs ?? {}, cwd: msg.process.cwd };
  const tty = !!msg.pty;
  const env = Object.entries({ ...sb.envVars, ...config.envs }).map(([k, v]) => `${k}=${v}`);
  let exec: Docker.Exec;
  try {
    exec = await sb.container.exec({
      // The pid file lets SendSignal reach this process; `exec` keeps argv as given, no shell parsing.
      Cmd: ['/bin/sh', '-c', 'echo $$ > "$0"; exec "$@"', pidFile, config.cmd, ...config.args],
      Env: env,
      WorkingDir: config.cwd || (user === 'root' ? '/root' : `/home/${user}`),
      User: user,
      AttachStdout: true,
      AttachStderr: true,
      AttachStdin: !!msg.stdin || tty,
      Tty: tty,
    });
  } catch (e) {
    res.writeHead(400, { 'content-type': 'application/json' });
    return void res.end(JSON.stringify({ code: 'invalid_argument', message: String(e) }));
  }
  const stream = await exec.start({ hijack: true, stdin: !!msg.stdin || tty, Tty: tty });
  if (tty && msg.pty?.size?.cols && msg.pty.size.rows) await exec.resize({ w: msg.pty.size.cols, h: msg.pty.size.rows }).catch(() => {});
  const listeners = new Set<http.ServerResponse>([res]);
  const send = (b: Buffer) => {
    for (const l of listeners) if (!l.writableEnded) l.write(b);
  };
  res.writeHead(200, { 'content-type': 'application/connect+json' });
  res.write(frame({ start: { pid } }));
  const p: FakeProcess = {
    config,
    ended: false,
    pidFile,
    write: (d) => stream.write(d),
    closeStdin: () => stream.end(),
    resize: async (w, h) => void (await exec.resize({ w, h }).catch(() => {})),
    attach: (r) => {
      r.writeHead(200, { 'content-type': 'application/connect+json' });
      r.write(frame({ start: { pid } }));
      listeners.add(r);
    },
  };
  sb.processes.set(pid, p);
  const data = (kind: 'stdout' | 'stderr' | 'pty') => (c: Buffer) => send(frame({ data: { [kind]: c.toString('base64') } }));
  if (tty) stream.on('data', data('pty'));
  else {
    const out = new PassThrough().on('data', data('stdout'));
    const err = new PassThrough().on('data', data('stderr'));
    sb.container.modem.demuxStream(stream, out, err);
  }
  const deadline = Number(req.headers['connect-timeout-ms']);
  let expired = false;
  const timer =
    deadline > 0
      ? setTimeout(() => {
          expired = true;
          killIn(sb, p, 'KILL').catch(() => {});
        }, deadline)
      : undefined;
  let finished = false;
  const finish = async () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    const exitCode = await exitCodeOf(exec).catch(() => -1);
    p.ended = true;
    send(frame({ end: { exitCode, exited: true, status: exitCode > 128 ? `signal: ${exitCode - 128}` : `exit status ${exitCode}` } }));
    const tail = encodeEnvelope(expired ? { error: { code: 'deadline_exceeded', message: 'deadline exceeded' } } : {}, END_STREAM);
    for (const l of listeners) if (!l.writableEnded) l.end(tail);
  };
  stream.on('end', finish);
  stream.on('close', finish);
}
