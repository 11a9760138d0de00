// Runs the production server (`dist/server.js`, as `npm start` does) for end-to-end tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { listBridgeNetworks, removeBridgeNetwork } from '@/lib/network/docker/networks';
import { deleteTable } from '@/lib/network/docker/nft';
import { ROOT } from './build';

export { ensureBuilt, ROOT } from './build';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  base: string;
  port: number;
  dataDir: string;
  proc: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
  kill9(): Promise<void>;
}

/** The one-time setup token a fresh server wrote to its data dir (what its log's setup URL carries). */
export function setupToken(dataDir: string): string {
  return fs.readFileSync(path.join(dataDir, 'setup-token'), 'utf8').trim();
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), prefix));
}

/** The firewall table and sandbox networks a stopped server leaves in place (to keep sandboxes confined). */
export async function removeNetworkRules(table: string): Promise<void> {
  if (process.getuid?.() !== 0) return;
  await deleteTable(table).catch(() => undefined);
  if (!process.env.DOCKER_HOST) return;
  const docker = new Docker();
  for (const n of await listBridgeNetworks(docker, table).catch(() => [])) await removeBridgeNetwork(docker, n.name).catch(() => undefined);
}

/**
 * `sharedNetwork`: the replica shares its firewall table with others (a cluster), so stopping it
 * leaves the table and networks to the replica that takes over.
 */
export async function startServer(
  opts: { dataDir?: string; env?: Record<string, string>; port?: number; sharedNetwork?: boolean } = {},
): Promise<RunningServer> {
  const port = opts.port ?? (await freePort());
  const dataDir = opts.dataDir ?? tempDir('skilldock-e2e-');
  // Each server owns a firewall table and sandbox networks of its own (by data dir, so a restart keeps them).
  const nftTable = opts.env?.SKILLDOCK_NFT_TABLE ?? `skilldock_e${createHash('sha256').update(dataDir).digest('hex').slice(0, 10)}`;
  // SKILLDOCK_CHECK_OUTPUT: every answer is checked against its contract here too (a mismatch is a 500).
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    SKILLDOCK_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SKILLDOCK_CHECK_OUTPUT: '1',
    SKILLDOCK_NFT_TABLE: nftTable,
    SKILLDOCK_DNS_UPSTREAMS: '127.0.0.1:9',
    ...opts.env,
  };
  if (!opts.env?.DATABASE_URL) delete env.DATABASE_URL;
  const proc = spawn(process.execPath, [process.env.SKILLDOCK_E2E_SERVER_JS || path.join(ROOT, 'dist/server.js')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited during start (code ${proc.exitCode}):\n${out}`);
    try {
      const r = await fetch(`${base}/api/health`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`server did not answer /api/health:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    port,
    dataDir,
    proc,
    output: () => out,
    async stop() {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await exited;
      if (!opts.sharedNetwork) await removeNetworkRules(nftTable);
    },
    async kill9() {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      await exited;
      if (!opts.sharedNetwork) await removeNetworkRules(nftTable);
    },
  };
}
