// Shared pieces of the benchmarks: a production server on a fresh data dir, a signed-in session, stats.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStamp } from '../scripts/build-stamp.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PASSWORD = 'correct horse battery staple';

export function ensureBuilt() {
  const stamp = path.join(ROOT, 'dist/build-stamp');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === buildStamp(ROOT)) return;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('build failed');
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

export async function startServer(extraEnv: Record<string, string> = {}) {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-bench-'));
  // BENCH_SERVER_JS: another build of the server (with SKILLDOCK_NEXT_DIST naming its Next folder).
  // BENCH_SERVER_NODE_ARGS: node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it.
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const proc = spawn(process.execPath, [...nodeArgs, path.resolve(ROOT, process.env.BENCH_SERVER_JS ?? 'dist/server.js')], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      SKILLDOCK_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      SKILLDOCK_ADMIN_EMAIL: 'bench@example.com',
      SKILLDOCK_ADMIN_PASSWORD: PASSWORD,
      ...extraEnv,
    },
  });
  // The server's error log lines are counted: a 500 the load generator never saw still counts.
  let errorLines = 0;
  let stopped: Promise<void> | undefined;
  proc.stderr!.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    errorLines += chunk
      .toString()
      .split('\n')
      .filter((l) => l.includes('"level":"error"')).length;
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    errorLines: () => errorLines,
    stop() {
      stopped ??= (async () => {
        proc.kill('SIGTERM');
        await new Promise((r) => proc.once('exit', r));
        fs.rmSync(dataDir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

export async function login(base: string, email = 'bench@example.com') {
  const jar = new Map<string, string>();
  const take = (res: Response) =>
    res.headers.getSetCookie().forEach((c) => {
      const [p] = c.split(';');
      const i = p.indexOf('=');
      jar.set(p.slice(0, i), p.slice(i + 1));
    });
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const c = await fetch(`${base}/api/auth/csrf`);
  take(c);
  const { csrfToken } = (await c.json()) as { csrfToken: string };
  const r = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie() },
    body: new URLSearchParams({ csrfToken, email, password: PASSWORD, json: 'true' }),
  });
  take(r);
  return cookie();
}

export function percentile(sorted: number[], p: number) {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const nowMs = () => performance.timeOrigin + performance.now();
export const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
