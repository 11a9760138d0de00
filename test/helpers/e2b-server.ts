// A loopback E2B-protocol server (E2B or CubeSandbox flavour) for client tests: the control plane
// and envd on one handler, served over http (the API URL, and the proxy URL that routes by Host)
// and https (Host routing `{port}-{id}.{domain}` with a test CA). Each sandbox is a real Docker
// container, so commands really run. CONNECT on the http port tunnels to the https port, which is
// how the official SDK (forcing https and sandbox hosts) reaches it through its `proxy` option.
//
//   const srv = await startE2bServer({ docker });       // srv.apiUrl, srv.domain, srv.caCert, srv.lookup
//   srv.inject({ route: 'create', status: 429, body: {...} });
//   await srv.close();                                  // containers removed by label
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo, type LookupFunction } from 'node:net';
import type Docker from 'dockerode';
import { handleControl } from './e2b-server-control';
import { handleEnvd } from './e2b-server-envd';
import type { NetworkRecord } from './e2b-server-network';
import type { FakeSandbox, Fault, Flavor, Route } from './e2b-server-types';

export type { Fault, Flavor, NetworkRecord, Route };

import { testCertificates } from './e2b-server-tls';

export interface E2bServerOptions {
  docker: Docker;
  flavor?: Flavor;
  /** Base sandbox domain; the served domain adds the https port (`e2b.test:PORT`). */
  baseDomain?: string;
  apiKey?: string;
  envdVersion?: string;
  templates?: string[];
  strictUser?: boolean;
  /** Largest page `GET /v2/sandboxes` answers (E2B caps at 100); small values exercise paging. */
  pageSize?: number;
}

export interface SeenRequest {
  via: 'http' | 'https';
  host: string;
  method: string;
  path: string;
  plane: 'control' | 'envd';
}

export interface E2bServer {
  /** The value of this server's E2B_SERVER_LABEL on every container it starts. */
  serverId: string;
  flavor: Flavor;
  apiUrl: string;
  /** The https control plane (`https://api.<base>:PORT`), reached through `lookup`. */
  apiUrlTls: string;
  proxyUrl: string;
  domain: string;
  baseDomain: string;
  apiKey: string;
  caCert: string;
  caFile: string;
  httpsPort: number;
  httpPort: number;
  /** DNS for the test domain: every name under it is 127.0.0.1. */
  lookup: LookupFunction;
  sandboxes: Map<string, FakeSandbox>;
  seen: SeenRequest[];
  /** `allow_internet_access` and `network` of each create and each `PUT …/network` (Cube has no such route: 404). */
  networkLog: NetworkRecord[];
  inject(fault: Fault): void;
  close(): Promise<void>;
}

export const E2B_SERVER_LABEL = 'skilldock.test.e2b-server';
const HOST_ROUTE = /^(\d+)-([A-Za-z0-9_-]+)\./;

export async function startE2bServer(o: E2bServerOptions): Promise<E2bServer> {
  const flavor = o.flavor ?? 'e2b';
  const baseDomain = o.baseDomain ?? (flavor === 'cube' ? 'cube.test' : 'e2b.test');
  const tls = await testCertificates();
  const serverId = randomBytes(6).toString('hex');
  const faults: (Fault & { left: number })[] = [];
  const sandboxes = new Map<string, FakeSandbox>();
  const seen: SeenRequest[] = [];
  const networkLog: NetworkRecord[] = [];
  const state = {
    flavor,
    docker: o.docker,
    apiKey: o.apiKey ?? `e2b_${randomBytes(20).toString('hex')}`,
    envdVersion: o.envdVersion ?? '0.5.7',
    templates: o.templates ?? ['base', 'skilldock-test'],
    pageSize: o.pageSize ?? 100,
    label: { [E2B_SERVER_LABEL]: serverId },
    domain: '',
    sandboxes,
    networkLog,
    fault(route: Route): Fault | undefined {
      const f = faults.find((x) => x.left > 0 && (x.route === route || x.route === 'any'));
      if (f) f.left--;
      return f;
    },
  };

  const handler = (via: 'http' | 'https') => async (req: http.IncomingMessage, res: http.ServerResponse) => {
    try {
      const host = req.headers.host ?? '';
      const url = new URL(req.url ?? '/', 'http://x');
      const m = HOST_ROUTE.exec(host);
      // CubeProxy routes by Host only; E2B's edge also reads the sandbox headers.
      const headerId = flavor === 'e2b' ? req.headers['e2b-sandbox-id'] : undefined;
      const id = m?.[2] ?? (typeof headerId === 'string' ? headerId : undefined);
      seen.push({ via, host, method: req.method ?? '', path: url.pathname, plane: id ? 'envd' : 'control' });
      if (!id) return await handleControl(state, req, res, url);
      const fault = state.fault('envd');
      if (fault) return void res.writeHead(fault.status, { 'content-type': 'application/json' }).end(JSON.stringify(fault.body ?? {}));
      const sb = sandboxes.get(id);
      const port = m?.[1] ?? req.headers['e2b-sandbox-port'];
      if (!sb) return void res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body>502 Bad Gateway: sandbox not found</body></html>');
      if (String(port) !== '49983') return void res.writeHead(502).end(`connect() failed (111) to port ${port}`);
      await handleEnvd(sb, req, res, url, { strictUser: o.strictUser });
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 500, message: String(e) }));
    }
  };

  const plain = http.createServer(handler('http'));
  const secure = https.createServer({ key: tls.key, cert: tls.cert }, handler('https'));
  const sockets = new Set<net.Socket>();
  for (const s of [plain, secure]) s.on('connection', (c: net.Socket) => sockets.add(c.on('close', () => sockets.delete(c))));
  await Promise.all([plain, secure].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))));
  const httpPort = (plain.address() as AddressInfo).port;
  const httpsPort = (secure.address() as AddressInfo).port;
  state.domain = `${baseDomain}:${httpsPort}`;

  const inDomain = (h: string) => h === baseDomain || h.endsWith(`.${baseDomain}`);
  plain.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const [h = ''] = (req.url ?? '').split(':');
    if (!inDomain(h)) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const up = net.connect(httpsPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    up.on('error', () => client.destroy());
    client.on('error', () => up.destroy());
  });

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, sb] of sandboxes) {
      if (sb.endAt.getTime() <= now) {
        sandboxes.delete(id);
        sb.container.remove({ force: true }).catch(() => {});
      }
    }
  }, 250);
  sweep.unref();

  const lookup = ((hostname: string, options: unknown, cb?: unknown) => {
    const callback = (typeof options === 'function' ? options : cb) as (...a: unknown[]) => void;
    const all = typeof options === 'object' && options !== null && (options as { all?: boolean }).all;
    if (!inDomain(hostname)) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    if (all) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
    callback(null, '127.0.0.1', 4);
  }) as LookupFunction;

  return {
    serverId,
    flavor,
    apiUrl: `http://127.0.0.1:${httpPort}`,
    apiUrlTls: `https://api.${baseDomain}:${httpsPort}`,
    proxyUrl: `http://127.0.0.1:${httpPort}`,
    domain: state.domain,
    baseDomain,
    apiKey: state.apiKey,
    caCert: tls.ca,
    caFile: tls.caFile,
    httpsPort,
    httpPort,
    lookup,
    sandboxes,
    seen,
    networkLog,
    inject: (f) => void faults.push({ ...f, left: f.times ?? 1 }),
    async close() {
      clearInterval(sweep);
      for (const s of sockets) s.destroy();
      await Promise.all([plain, secure].map((s) => new Promise<void>((r) => s.close(() => r()))));
      await removeServerContainers(o.docker, serverId);
    },
  };
}

/** The containers these servers started and still hold (other files' E2B servers run beside them). */
export async function serverContainers(docker: Docker, ...servers: (E2bServer | undefined)[]) {
  const out: Docker.ContainerInfo[] = [];
  for (const s of servers) if (s) out.push(...(await docker.listContainers({ all: true, filters: { label: [`${E2B_SERVER_LABEL}=${s.serverId}`] } })));
  return out;
}

/** Removes every container a server (or, without an id, any test server) started. */
export async function removeServerContainers(docker: Docker, serverId?: string): Promise<void> {
  const label = serverId ? `${E2B_SERVER_LABEL}=${serverId}` : E2B_SERVER_LABEL;
  const list = await docker.listContainers({ all: true, filters: { label: [label] } });
  await Promise.all(
    list.map((c) =>
      docker
        .getContainer(c.Id)
        .remove({ force: true })
        .catch(() => {}),
    ),
  );
}
