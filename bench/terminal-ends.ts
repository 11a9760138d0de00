// The two ends the terminal bench types into, behind one shape: Skilldock's /ws/terminal (a Node
// `ws` client sending binary frames, as the browser's xterm.js does) and, as the baseline, a raw
// dockerode TTY exec stream into the same sandbox with the same shell and env. Both answer the
// shell's cursor-position query (ESC[6n) with ESC[1;1R, as xterm does.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Duplex } from 'node:stream';
import Docker from 'dockerode';
import WebSocket from 'ws';
import { ROOT } from './common';

const DSR = '\x1b[6n';
const DSR_ANSWER = Buffer.from('\x1b[1;1R');
// What Skilldock's Docker terminal runs (lib/sandbox/docker/tty.ts), so both ends drive the same shell.
export const SHELL = ['sh', '-c', 'if command -v bash >/dev/null 2>&1; then exec bash; else exec sh; fi'];
export const COLS = 80;
export const ROWS = 24;
const noop = () => {};
/** Starts each line the child answers with; its other stdout lines are its logs. */
export const REPLY = '@bench ';

export interface TermEnd {
  readonly name: string;
  write(bytes: Buffer): void;
  /** Every output chunk, in order; replaces the previous callback. */
  onData(cb: (bytes: Buffer) => void): void;
  close(): Promise<void>;
}

function answeringDsr(write: (b: Buffer) => void, cb: (b: Buffer) => void) {
  return (b: Buffer) => {
    // A query is a few bytes at the end of a prompt; big output chunks cannot hold one unless short.
    if (b.length < 4096 && b.includes(DSR)) write(DSR_ANSWER);
    cb(b);
  };
}

interface ChildInfo {
  port: number;
  instanceId: string;
  containerId: string;
  cookie: string;
  origin: string;
}

/** A bench child process (tsx) whose replies are stdout lines starting with REPLY; stop() closes its stdin. */
function spawnChild(script: string, args: string[], env: Record<string, string>, nodeArgs: string[] = []) {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', '--import', './scripts/server-only-hook.mjs', path.join(ROOT, script), ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const lines = createInterface({ input: child.stdout! });
  const queue: ((l: string) => void)[] = [];
  lines.on('line', (l) => (l.startsWith(REPLY) ? queue.shift()?.(l.slice(REPLY.length)) : process.stderr.write(`${l}\n`)));
  const nextLine = (what: string, ms: number) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${script} gave no ${what} within ${ms / 1000} s`)), ms);
      queue.push((l) => {
        clearTimeout(timer);
        resolve(l);
      });
      child.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
    });
  const stop = async () => {
    child.stdin!.end();
    await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return { nextLine, send: (l: string) => child.stdin!.write(`${l}\n`), stop };
}

/** The terminal server in a child process (bench/terminal-child.ts), with a ticket source. */
export async function startTerminalChild(env: Record<string, string>) {
  const nodeArgs = process.env.BENCH_TERMINAL_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawnChild('bench/terminal-child.ts', [], env, nodeArgs);
  try {
    const info = JSON.parse(await child.nextLine('harness', 180_000)) as ChildInfo;
    const ticket = async () => {
      child.send('ticket');
      const t = JSON.parse(await child.nextLine('ticket', 30_000)) as { status: number; json: { ticket: string } };
      if (t.status !== 200) throw new Error(`ticket refused: ${t.status} ${JSON.stringify(t.json)}`);
      return t.json.ticket;
    };
    const url = async () => {
      const q = new URLSearchParams({ ticket: await ticket(), sandbox: info.instanceId, cols: String(COLS), rows: String(ROWS) });
      return `ws://127.0.0.1:${info.port}/ws/terminal?${q}`;
    };
    return { info, url, stop: child.stop };
  } catch (e) {
    await child.stop();
    throw e;
  }
}

/** The bare relay (bench/terminal-relay-child.ts) into `containerId`. */
export async function startRelayChild(env: Record<string, string>, containerId: string) {
  const child = spawnChild('bench/terminal-relay-child.ts', [containerId], env);
  try {
    const port = Number(await child.nextLine('port', 60_000));
    return { url: `ws://127.0.0.1:${port}/`, stop: child.stop };
  } catch (e) {
    await child.stop();
    throw e;
  }
}

/** A socket to a terminal server (Skilldock's /ws/terminal or the bare relay), open once its `ready` frame came. */
export async function openSocketEnd(name: string, url: string, auth?: { cookie: string; origin: string }): Promise<TermEnd> {
  const ws = new WebSocket(url, { perMessageDeflate: false, ...(auth ? { headers: { cookie: auth.cookie }, origin: auth.origin } : {}) });
  let cb: (b: Buffer) => void = noop;
  const write = (b: Buffer) => ws.send(b, { binary: true });
  const early: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no ready frame within 60 s')), 60_000);
    ws.on('message', (data, isBinary) => {
      if (isBinary) return cb === noop ? void early.push(data as Buffer) : cb(data as Buffer);
      const frame = JSON.parse(String(data)) as { type: string };
      if (frame.type === 'ready') {
        clearTimeout(timer);
        resolve();
      } else if (frame.type === 'error') reject(new Error(`terminal error: ${String(data)}`));
    });
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    ws.once('error', reject);
    ws.once('close', (code, reason) => reject(new Error(`closed ${code} ${reason}`)));
  });
  return {
    name,
    write,
    onData(next) {
      cb = answeringDsr(write, next);
      for (const b of early.splice(0)) cb(b);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === WebSocket.CLOSED) return resolve();
        ws.once('close', () => resolve());
        ws.close(1000);
      }),
  };
}

/** The baseline: a TTY exec straight through dockerode, as `docker exec -it <sandbox> sh` does. */
export async function openDirectEnd(host: string | undefined, containerId: string): Promise<TermEnd> {
  const docker = host ? new Docker(dockerOpts(host)) : new Docker();
  const exec = await docker.getContainer(containerId).exec({
    Cmd: SHELL,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Tty: true,
    Env: ['TERM=xterm-256color', 'LANG=C.UTF-8'],
  });
  const stream = (await exec.start({ hijack: true, stdin: true, Tty: true })) as unknown as Duplex;
  await exec.resize({ w: COLS, h: ROWS });
  const write = (b: Buffer) => void stream.write(b);
  let cb: (b: Buffer) => void = noop;
  const early: Buffer[] = [];
  stream.on('data', (b: Buffer) => (cb === noop ? early.push(b) : cb(b)));
  return {
    name: 'direct',
    write,
    onData(next) {
      cb = answeringDsr(write, next);
      for (const b of early.splice(0)) cb(b);
    },
    async close() {
      stream.end();
      stream.destroy();
    },
  };
}

function dockerOpts(host: string): Docker.DockerOptions {
  if (host.startsWith('unix://')) return { socketPath: host.slice('unix://'.length) };
  const u = new URL(host.replace(/^tcp:/, 'http:'));
  return { host: u.hostname, port: Number(u.port) };
}
