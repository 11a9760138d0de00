// Several replicas of the production build on one new PostgreSQL database, behind a round-robin
// proxy: what an operator runs behind a load balancer with no stickiness. The replicas share the
// session secret, the firewall table name and the Docker engine; each has its own data dir and port.
import { randomBytes } from 'node:crypto';
import { freshPostgresDatabase, type TestDatabase } from '../../test/helpers/db';
import { type RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy';
import { freePort, type RunningServer, removeNetworkRules, startServer } from './server';
import { PASSWORD } from './session';

export const OWNER_EMAIL = 'owner@example.com';

export interface Cluster {
  /** The proxy's URL: what users and gateways are given. */
  base: string;
  proxy: RoundRobinProxy;
  replicas: RunningServer[];
  database: TestDatabase;
  table: string;
  /** Starts one more replica with the cluster's settings and puts it behind the proxy. */
  addReplica(): Promise<RunningServer>;
  /** Takes a replica out of the proxy's rotation (a health check would, once it stops answering). */
  drop(replica: RunningServer): void;
  stop(): Promise<void>;
}

/** Neither exited nor killed by a signal. */
export const running = (r: RunningServer) => r.proc.exitCode === null && r.proc.signalCode === null;

/**
 * `replicas` servers, started at the same moment on an empty database made on the PostgreSQL server
 * of `adminUrl` (default DATABASE_URL_TEST).
 */
export async function startCluster(opts: { replicas: number; env?: Record<string, string>; adminUrl?: string }): Promise<Cluster> {
  const database = await freshPostgresDatabase(opts.adminUrl ?? process.env.DATABASE_URL_TEST);
  const proxy = await startRoundRobinProxy();
  const table = `skilldock_c${randomBytes(5).toString('hex')}`;
  const env: Record<string, string> = {
    DATABASE_URL: database.url!,
    NEXTAUTH_SECRET: randomBytes(32).toString('hex'),
    SKILLDOCK_PUBLIC_URL: proxy.base,
    SKILLDOCK_NFT_TABLE: table,
    SKILLDOCK_EGRESS_PROXY_PORT: String(await freePort()),
    SKILLDOCK_ADMIN_EMAIL: OWNER_EMAIL,
    SKILLDOCK_ADMIN_PASSWORD: PASSWORD,
    DOCKER_HOST: process.env.DOCKER_HOST ?? '',
    ...opts.env,
  };
  const replicas: RunningServer[] = [];
  const rotate = () => proxy.setBackends(replicas.filter((r) => running(r) && !dropped.has(r)).map((r) => r.base));
  const dropped = new Set<RunningServer>();
  const start = async () => {
    const r = await startServer({ env, sharedNetwork: true });
    replicas.push(r);
    rotate();
    return r;
  };
  try {
    await Promise.all(Array.from({ length: opts.replicas }, start));
  } catch (e) {
    await Promise.all(replicas.map((r) => r.stop()));
    await proxy.close();
    await database.cleanup();
    throw e;
  }
  return {
    base: proxy.base,
    proxy,
    replicas,
    database,
    table,
    addReplica: start,
    drop(replica) {
      dropped.add(replica);
      rotate();
    },
    async stop() {
      await Promise.all(replicas.map((r) => r.stop()));
      await proxy.close();
      await removeNetworkRules(table);
      await database.cleanup();
    },
  };
}
