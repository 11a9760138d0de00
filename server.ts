import http from 'node:http';
import next from 'next';
import { loadConfig } from './lib/core/config';
import { logger } from './lib/core/logger';
import { CLIENT_IP_HEADER } from './lib/http/authenticate';
import { jobsSocket } from './lib/http/jobs-socket';
import { SocketRouter } from './lib/http/ws-router';
import { getServices, setServices, startServices, stopServices } from './lib/services';

const dev = process.argv.includes('--dev');

function clientIp(req: http.IncomingMessage, trustProxy: boolean): string {
  const xff = req.headers['x-forwarded-for'];
  const first = trustProxy && typeof xff === 'string' ? xff.split(',')[0]?.trim() : undefined;
  return (first || req.socket.remoteAddress || 'unknown').replace(/^::ffff:/, '');
}

async function main() {
  const config = loadConfig();
  process.env.NEXTAUTH_URL ??= config.SKILLDOCK_PUBLIC_URL ?? `http://localhost:${config.PORT}`;
  const boot = startServices({ config });
  setServices(boot);
  const services = await boot;
  process.env.NEXTAUTH_SECRET = services.authSecret;

  const sockets = new SocketRouter(getServices);
  sockets.register(jobsSocket);

  let handle: ReturnType<ReturnType<typeof next>['getRequestHandler']> | undefined;
  const server = http.createServer((req, res) => {
    // Overwrite whatever the client sent: downstream code trusts this header for audit and throttling.
    req.headers[CLIENT_IP_HEADER] = clientIp(req, config.SKILLDOCK_TRUST_PROXY);
    if (!handle) {
      res.writeHead(503, { 'retry-after': '2' }).end('Starting');
      return;
    }
    void handle(req, res);
  });
  server.on('upgrade', (req, socket, head) => {
    req.headers[CLIENT_IP_HEADER] = clientIp(req, config.SKILLDOCK_TRUST_PROXY);
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
  logger.info(`Skilldock ${services.version} listening on http://${config.HOST === '0.0.0.0' ? 'localhost' : config.HOST}:${config.PORT}`, {
    database: services.database.kind,
    location: services.database.location,
    worker: services.worker?.id ?? 'off',
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    server.close();
    server.closeAllConnections();
    await stopServices(services).catch((e) => logger.error('shutdown error', { error: String(e) }));
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((e) => {
  logger.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
