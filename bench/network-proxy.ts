// The egress proxy the loopback network benchmarks go through: its judge allows only `bench.test`,
// which the bench resolves to 127.0.0.1. Run in the bench's own process, or alone in a child process
// (network-proxy-child.ts) as it runs in production: in the console, apart from client and server.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Decision } from '../lib/network/policy/types';
import { EgressProxy } from '../lib/network/proxy/egress-proxy';
import { ROOT } from './common';

export const BENCH_NAME = 'bench.test';
const allow: Decision = { allowed: true, kind: 'allow-domain', entry: BENCH_NAME, rule: `${BENCH_NAME} is on the allow list.` };
const deny: Decision = { allowed: false, kind: 'default-deny', rule: `Only ${BENCH_NAME} is allowed.` };

export const benchProxy = () =>
  new EgressProxy({
    judge: { name: (host) => (host === BENCH_NAME ? null : deny), resolved: (host) => (host === BENCH_NAME ? allow : deny) },
    resolve: async (host) => (host === BENCH_NAME ? ['127.0.0.1'] : []),
  });

/** The proxy in a child process on 127.0.0.1; resolves once it listens. */
export async function startProxyChild(): Promise<{ port: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/network-proxy-child.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the proxy child did not start within 60 s')), 60_000);
    lines.once('line', (l) => {
      clearTimeout(timer);
      resolve(Number(l));
    });
    child.once('exit', (code) => reject(new Error(`the proxy child exited (${code}) before listening`)));
  }).catch(async (e) => {
    await stop();
    throw e;
  });
  return { port, stop };
}
