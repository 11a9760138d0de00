// Starts the real Services (database, migrations, event hub, worker) on a fresh test database.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@/lib/core/config';
import { type Services, startServices, stopServices } from '@/lib/services';
import { testDatabaseUrl } from './db';

export interface TestServices {
  services: Services;
  dataDir: string;
  databaseUrl: string | undefined;
  stop(): Promise<void>;
}

export async function startTestServices(opts: { worker?: boolean; env?: Record<string, string> } = {}): Promise<TestServices> {
  const tdb = await testDatabaseUrl();
  const dataDir = tdb.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'skilldock-int-')));
  const config = loadConfig({
    SKILLDOCK_DATA_DIR: dataDir,
    ...(tdb.url ? { DATABASE_URL: tdb.url } : {}),
    SKILLDOCK_JOB_LEASE_MS: '3000',
    LOG_LEVEL: 'warn',
    // A table and networks of this run's own (test files run in parallel); DNS never leaves loopback.
    SKILLDOCK_NFT_TABLE: `skilldock_t${randomBytes(5).toString('hex')}`,
    SKILLDOCK_DNS_UPSTREAMS: '127.0.0.1:9',
    ...opts.env,
  });
  const services = await startServices({ config, worker: opts.worker ?? true });
  return {
    services,
    dataDir,
    databaseUrl: tdb.url,
    async stop() {
      await stopTestReplica(services);
      await tdb.cleanup();
      if (!tdb.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Stops services a test started, removing the nft table and networks they enforced: a product
 * shutdown keeps its rules in force, but a test's tables must not outlive it (each one left on the
 * host makes every later `nft` call slower, for every table the kernel holds).
 */
export async function stopTestReplica(services: Services): Promise<void> {
  // The lease goes first, so no renewal or refresh renders the table again after it is removed.
  const close = { removeRules: true, removeNetworks: true };
  if (services.network.owner) await services.network.owner.stop(close);
  else await services.network.enforcer?.close(close);
  await stopServices(services);
}

/** Polls `check` until it returns a truthy value; fails with `what` after `limitMs`. Not a timing assertion: a bound on waiting. */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false>, what: string, limitMs = 30_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
