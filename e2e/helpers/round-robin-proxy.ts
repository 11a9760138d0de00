// A plain round-robin load balancer for tests: no stickiness, WebSocket upgrades passed through.
// It records where each request and upgrade landed so a test can say which replica answered.
import http from 'node:http';
import net from 'node:net';

export interface Landing {
  kind: 'http' | 'upgrade';
  path: string;
  /** The replica's base URL. */
  backend: string;
}

export interface RoundRobinProxy {
  base: string;
  port: number;
  /** Replica base URLs (http://host:port); a removed one gets no more traffic (as a health check would). */
  setBackends(backends: string[]): void;
  landings: Landing[];
  close(): Promise<void>;
}

const hopByHop = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

export async function startRoundRobinProxy(): Promise<RoundRobinProxy> {
  let backends: URL[] = [];
  // Upgrades rotate per path: consecutive terminal sockets alternate even when job sockets open between.
  let nextHttp = 0;
  const nextUpgrade = new Map<string, number>();
  const landings: Landing[] = [];
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const sockets = new Set<net.Socket>();

  const pick = (kind: Landing['kind'], path: string): URL | null => {
    if (backends.length === 0) return null;
    const key = path.split('?')[0]!;
    const n = kind === 'http' ? nextHttp++ : (nextUpgrade.get(key) ?? 0);
    if (kind === 'upgrade') nextUpgrade.set(key, n + 1);
    const i = n % backends.length;
    const target = backends[i]!;
    landings.push({ kind, path, backend: target.origin });
    return target;
  };

  const server = http.createServer((req, res) => {
    const target = pick('http', req.url ?? '/');
    if (!target) {
      res.writeHead(503).end('no backend');
      return;
    }
    const headers: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(req.headers)) if (!hopByHop.has(k)) headers[k] = v;
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (up) => {
      const out: http.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(up.headers)) if (!hopByHop.has(k) && v !== undefined) out[k] = v;
      res.writeHead(up.statusCode ?? 502, out);
      up.pipe(res);
      res.on('close', () => up.destroy());
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end('backend unreachable');
      else res.destroy();
    });
    req.pipe(upstream);
    req.on('aborted', () => upstream.destroy());
  });

  server.on('upgrade', (req, client, head) => {
    const target = pick('upgrade', req.url ?? '/');
    if (!target) {
      client.end('HTTP/1.1 503 Service Unavailable\r\n\r\n');
      return;
    }
    const up = net.connect(Number(target.port), target.hostname);
    sockets.add(client as net.Socket).add(up);
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    up.on('connect', () => {
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    const end = () => {
      client.destroy();
      up.destroy();
      sockets.delete(client as net.Socket);
      sockets.delete(up);
    };
    up.on('error', end).on('close', end);
    client.on('error', end).on('close', end);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    landings,
    setBackends(list) {
      backends = list.map((b) => new URL(b));
    },
    async close() {
      for (const s of sockets) s.destroy();
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
