import http from 'node:http';
import os from 'node:os';
import next from 'next';
import { ops } from './lib/api/operations';
import { readSetupToken, setupUrl } from './lib/auth/setup-token';
import { userCount } from './lib/auth/users';
import { scrubSecretEnv } from './lib/core/child-env';
import { loadConfig } from './lib/core/config';
import { logger } from './lib/core/logger';
import { apiRouter } from './lib/http/api-router';
import { CLIENT_IP_HEADER } from './lib/http/authenticate';
import { clientIp, parseTrustedProxies } from './lib/http/client-ip';
import { hostAllowed, hostPolicy, hostRefusal } from './lib/http/host-check';
import { jobsSocket } from './lib/http/jobs-socket';
import { publicUrlBootWarning } from './lib/http/public-url';
import { terminalSocket } from './lib/http/terminal-socket';
import { refuseUpgrade, SocketRouter } from './lib/http/ws-router';
import { getServices, setServices, startServices } from './lib/services';
import { handleShutdownSignals } from './lib/shutdown';

const dev = process.argv.includes('--dev');

async function main() {
  const config = loadConfig();
  // next-auth gets the session secret through its options; no child or library reads it from the environment.
  scrubSecretEnv();
  process.env.NEXTAUTH_URL ??= config.SKILLDOCK_PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  const boot = startServices({ config });
  setServices(boot);
  const services = await boot;

  if (process.env.SKILLDOCK_TRUST_PROXY) logger.warn('SKILLDOCK_TRUST_PROXY is no longer read: set SKILLDOCK_TRUSTED_PROXIES to a hop count or CIDRs');
  const proxies = parseTrustedProxies(config.SKILLDOCK_TRUSTED_PROXIES);
  const hosts = hostPolicy(config);
  const ipOf = (req: http.IncomingMessage) => clientIp(req.socket.remoteAddress, req.headers['x-forwarded-for'], proxies);
  // Only Next's dev server owns an upgrade path (its HMR socket); in production every path is ours to answer.
  const sockets = new SocketRouter(getServices, (p) => dev && p.startsWith('/_next/'));
  sockets.register(jobsSocket);
  sockets.register(terminalSocket);
  // The REST API is answered from its contracts without Next's request pipeline; pages and the rest go to Next.
  const api = apiRouter(Object.values(ops));

  let handle: ReturnType<ReturnType<typeof next>['getRequestHandler']> | undefined;
  const server = http.createServer((req, res) => {
    // Overwrite whatever the client sent: downstream code trusts this header for audit and throttling.
    req.headers[CLIENT_IP_HEADER] = ipOf(req);
    // Every route, before Next sees it: a foreign Host is a DNS-rebinding page or a misrouted name.
    if (!hostAllowed(req.headers.host, hosts)) {
      const r = hostRefusal(req.headers.host);
      res.writeHead(r.status, { 'content-type': 'application/json', 'cache-control': 'no-store', connection: 'close' }).end(r.body);
      return;
    }
    if (api.serve(req, res)) return;
    if (!handle) {
      res.writeHead(503, { 'retry-after': '2' }).end('Starting');
      return;
    }
    void handle(req, res);
  });
  server.on('upgrade', (req, socket, head) => {
    req.headers[CLIENT_IP_HEADER] = ipOf(req);
    if (!hostAllowed(req.headers.host, hosts)) {
      const r = hostRefusal(req.headers.host);
      refuseUpgrade(socket, r.status, '', r.body);
      return;
    }
    sockets.handleUpgrade(req, socket, head);
    // Anything not ours (only /_next/* in dev) is left to Next's own upgrade listener.
  });
  const app = next({ dev, dir: process.cwd(), httpServer: server, hostname: config.HOST, port: config.PORT });
  await app.prepare();
  handle = app.getRequestHandler();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, resolve);
  });
  // Other replicas relay terminal re-attaches here; HOST 0.0.0.0 is reachable by this machine's name.
  const internalHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? os.hostname() : config.HOST;
  await services.replica.setAddress(
    config.SKILLDOCK_INTERNAL_URL ?? `http://${internalHost.includes(':') ? `[${internalHost}]` : internalHost}:${config.PORT}`,
  );
  logger.info(`Skilldock ${services.version} listening on http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}`, {
    database: services.database.kind,
    location: services.database.location,
    worker: services.worker?.id ?? 'off',
  });
  const publicUrlWarning = publicUrlBootWarning(config);
  if (publicUrlWarning) logger.warn(publicUrlWarning);
  const token = readSetupToken(config.dataDir);
  if (token && (await userCount(services.database.db)) === 0) {
    const base = config.SKILLDOCK_PUBLIC_URL ?? `http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}`;
    logger.warn(`First-run setup: open ${setupUrl(base, token)} to create the owner (the token is also in ${config.dataDir}/setup-token)`);
  }

  handleShutdownSignals({ server, services });
}

main().catch((e) => {
  logger.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
