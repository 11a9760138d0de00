// The agent gateway routes (skills list, one skill, one file, the event stream) served over real
// HTTP on loopback from this test process, for clients that run as child processes (skilldock sync).
// Event streams can be dropped (their sockets destroyed) or refused, to test resume and fallback.
import http from 'node:http';
import type { Socket } from 'node:net';
import { GET as bundleRoute } from '@/app/api/v1/agents/[id]/skill-files/route';
import { GET as fileRoute } from '@/app/api/v1/agents/[id]/skills/[name]/files/route';
import { GET as skillRoute } from '@/app/api/v1/agents/[id]/skills/[name]/route';
import { GET as skillsRoute } from '@/app/api/v1/agents/[id]/skills/route';
import { agentEventOps } from '@/lib/api/operations/agent-events';
import { route } from '@/lib/http/route';

type Handler = (req: Request, args?: { params?: Promise<Record<string, string>> }) => Promise<Response>;
const eventsRoute = route(agentEventOps.agentEvents) as Handler;

export interface GatewayHttp {
  url: string;
  /** Requests per route kind since start. */
  counts: Record<'skills' | 'skill' | 'file' | 'bundle' | 'events', number>;
  /** The names each bundle request asked for, in order. */
  bundles: string[][];
  /** Last-Event-ID headers the event route received, in order. */
  lastEventIds: (string | null)[];
  /** Open event streams now. */
  openStreams(): number;
  /** Destroys every open event stream's socket. */
  dropStreams(): void;
  /** While true, the event route answers 503. */
  refuseEvents: boolean;
  close(): Promise<void>;
}

function match(pathname: string): { handler: Handler; params: Record<string, string>; kind: keyof GatewayHttp['counts'] } | null {
  const m = /^\/api\/v1\/agents\/([^/]+)\/(skills|events|skill-files)(?:\/([^/]+)(\/files)?)?$/.exec(pathname);
  if (!m) return null;
  const id = decodeURIComponent(m[1] as string);
  if (m[2] === 'skill-files') return m[3] ? null : { handler: bundleRoute as Handler, params: { id }, kind: 'bundle' };
  if (m[2] === 'events') return m[3] ? null : { handler: eventsRoute, params: { id }, kind: 'events' };
  if (!m[3]) return { handler: skillsRoute as Handler, params: { id }, kind: 'skills' };
  const name = decodeURIComponent(m[3]);
  return m[4] ? { handler: fileRoute as Handler, params: { id, name }, kind: 'file' } : { handler: skillRoute as Handler, params: { id, name }, kind: 'skill' };
}

export async function startGatewayHttp(): Promise<GatewayHttp> {
  const streams = new Set<Socket>();
  const sockets = new Set<Socket>();
  const counts = { skills: 0, skill: 0, file: 0, bundle: 0, events: 0 };
  const lastEventIds: (string | null)[] = [];
  const gw = { refuseEvents: false, bundles: [] as string[][] } as GatewayHttp;
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const hit = req.method === 'GET' ? match(url.pathname) : null;
    if (!hit) return res.writeHead(404).end();
    counts[hit.kind]++;
    if (hit.kind === 'bundle') gw.bundles.push((url.searchParams.get('names') ?? '').split(','));
    if (hit.kind === 'events') {
      lastEventIds.push((req.headers['last-event-id'] as string | undefined) ?? null);
      if (gw.refuseEvents)
        return res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"code":"unavailable","message":"refused by the test"}}');
    }
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const response = await hit.handler(new Request(url, { headers, signal: ac.signal }), { params: Promise.resolve(hit.params) });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return res.end();
    if (hit.kind === 'events') {
      streams.add(req.socket);
      res.on('close', () => streams.delete(req.socket));
      res.flushHeaders();
    }
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!res.write(value)) await new Promise((r) => res.once('drain', r));
      }
      res.end();
    } catch {
      res.destroy();
    } finally {
      if (ac.signal.aborted) await reader.cancel().catch(() => undefined);
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return Object.assign(gw, {
    url: `http://127.0.0.1:${port}`,
    counts,
    lastEventIds,
    openStreams: () => streams.size,
    dropStreams: () => {
      for (const s of streams) s.destroy();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
