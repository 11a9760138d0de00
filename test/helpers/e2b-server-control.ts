// The control-plane half of the loopback E2B server: the documented routes with the API's shapes,
// `X-API-Key` checks, paging with `X-Next-Token`, metadata filters and TTLs; each sandbox is a
// container of the busybox test image provisioned like an E2B template (a `user` account, bash).
import { randomBytes } from 'node:crypto';
import type http from 'node:http';
import type Docker from 'dockerode';
import { execIn } from './e2b-server-exec';
import { createRecord, type NetworkRecord, networkProblem, updateRecord } from './e2b-server-network';
import type { FakeSandbox, Fault, Flavor, Route } from './e2b-server-types';
import { ensureBusyboxImage } from './sandbox-images';

export interface ControlState {
  flavor: Flavor;
  docker: Docker;
  apiKey: string;
  envdVersion: string;
  templates: string[];
  pageSize: number;
  label: Record<string, string>;
  domain: string;
  sandboxes: Map<string, FakeSandbox>;
  /** The egress settings of every create and network update, in arrival order. */
  networkLog: NetworkRecord[];
  fault(route: Route): Fault | undefined;
}

const json = (res: http.ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
  if (body === undefined) return void res.writeHead(status, headers).end();
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const fail = (res: http.ServerResponse, status: number, message: string) => json(res, status, { code: status, message });

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const c of req) text += (c as Buffer).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function listed(s: ControlState, sb: FakeSandbox) {
  return {
    sandboxID: sb.id,
    templateID: sb.templateID,
    clientID: 'x',
    startedAt: sb.startedAt.toISOString(),
    endAt: sb.endAt.toISOString(),
    state: 'running',
    cpuCount: 1,
    memoryMB: 512,
    diskSizeMB: 1024,
    metadata: sb.metadata,
    envdVersion: s.envdVersion,
  };
}

function created(s: ControlState, sb: FakeSandbox) {
  return {
    sandboxID: sb.id,
    templateID: sb.templateID,
    clientID: 'x',
    envdVersion: s.envdVersion,
    envdAccessToken: sb.secure ? sb.accessToken : null,
    trafficAccessToken: null,
    domain: s.domain,
  };
}

function routeOf(method: string, path: string): Route {
  if ((path === '/sandboxes' || path === '/v2/sandboxes') && method === 'POST') return 'create';
  if (path === '/v2/sandboxes' || path === '/sandboxes') return 'list';
  if (/\/timeout$|\/refreshes$/.test(path)) return 'timeout';
  if (path.endsWith('/connect')) return 'connect';
  if (path.endsWith('/network')) return 'network';
  return method === 'DELETE' ? 'delete' : 'get';
}

async function createSandbox(s: ControlState, body: Record<string, unknown>): Promise<FakeSandbox> {
  const image = await ensureBusyboxImage(s.docker);
  const id = `i${randomBytes(9).toString('hex')}`;
  const container = await s.docker.createContainer({
    Image: image,
    Cmd: ['sleep', '86400'],
    Labels: { ...s.label, 'skilldock.test.e2b-sandbox': id },
    HostConfig: { NetworkMode: 'none', Init: true },
  });
  await container.start();
  const sb: FakeSandbox = {
    id,
    templateID: String(body.templateID),
    container,
    metadata: (body.metadata as Record<string, string>) ?? {},
    envVars: (body.envVars as Record<string, string>) ?? {},
    secure: body.secure === true,
    accessToken: randomBytes(16).toString('hex'),
    startedAt: new Date(),
    endAt: new Date(Date.now() + Number(body.timeout ?? 15) * 1000),
    network: body.network,
    processes: new Map(),
    nextPid: 100,
  };
  // Like an E2B template: a `user` account (uid 1000) with a home, and a /bin/bash for the SDK's
  // commands (busybox picks its applet by argv[0], so a symlink named bash would not do).
  // (Debian's busybox-static has no adduser applet: a fixed script edits the account files.)
  const r = await execIn(sb, [
    '/bin/sh',
    '-c',
    'echo "user:x:1000:1000:user:/home/user:/bin/sh" >> /etc/passwd && echo "user:x:1000:" >> /etc/group && mkdir -p /home/user && chown 1000:1000 /home/user && printf \'#!/bin/sh\\nexec /bin/sh "$@"\\n\' > /bin/bash && chmod 755 /bin/bash',
  ]);
  if (r.exitCode !== 0) throw new Error(`provisioning the template failed: ${r.stdout}${r.stderr}`);
  s.sandboxes.set(id, sb);
  return sb;
}

export async function handleControl(s: ControlState, req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
  const method = req.method ?? 'GET';
  const path = url.pathname;
  if (path === '/health') return json(res, 200, { status: 'ok' });
  const key = req.headers['x-api-key'];
  // Cube runs without auth unless a callback is configured: any non-empty key passes.
  const keyOk = s.flavor === 'cube' ? typeof key === 'string' && key.length > 0 : key === s.apiKey;
  if (!keyOk) return fail(res, 401, 'Invalid API key');
  const fault = s.fault(routeOf(method, path));
  if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
  if (fault) return json(res, fault.status, fault.body ?? { code: fault.status, message: 'injected fault' });

  if (path === '/templates' && method === 'GET')
    return json(
      res,
      200,
      s.templates.map((t) => ({ templateID: t, aliases: [t], buildStatus: 'ready' })),
    );
  // Newer SDKs create (and connect) under /v2; Cube and older clients use the v1 paths.
  if ((path === '/sandboxes' || (path === '/v2/sandboxes' && s.flavor === 'e2b')) && method === 'POST') {
    const body = await readJson(req);
    if (typeof body.templateID !== 'string' || !body.templateID) return fail(res, 400, 'templateID is required');
    if (!s.templates.includes(body.templateID)) return fail(res, 404, `template '${body.templateID}' not found`);
    const bad = networkProblem(body.allow_internet_access, body.network);
    if (bad) return fail(res, 400, bad);
    const sb = await createSandbox(s, body);
    s.networkLog.push(createRecord(sb.id, body));
    return json(res, 201, created(s, sb));
  }
  if ((path === '/v2/sandboxes' || path === '/sandboxes') && method === 'GET') {
    const want = new URLSearchParams(url.searchParams.get('metadata') ?? '');
    const states = (url.searchParams.get('state') ?? 'running').split(',');
    const all = [...s.sandboxes.values()]
      .filter((sb) => states.includes('running') && [...want].every(([k, v]) => sb.metadata[k] === v))
      .sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime() || a.id.localeCompare(b.id));
    if (path === '/sandboxes')
      return json(
        res,
        200,
        all.map((sb) => listed(s, sb)),
      );
    const limit = Math.min(s.pageSize, Math.max(1, Number(url.searchParams.get('limit') ?? 100) || 100));
    const token = url.searchParams.get('nextToken');
    const start = token ? Number(Buffer.from(token, 'base64url').toString()) || 0 : 0;
    const page = all.slice(start, start + limit);
    const more = start + limit < all.length;
    const headers: Record<string, string> = { 'x-total-running': String(all.length) };
    if (more) headers['x-next-token'] = Buffer.from(String(start + limit)).toString('base64url');
    return json(
      res,
      200,
      page.map((sb) => listed(s, sb)),
      headers,
    );
  }
  const m = /^\/sandboxes\/([^/]+)(\/[a-z]+)?$/.exec(path) ?? (s.flavor === 'e2b' ? /^\/v2\/sandboxes\/([^/]+)(\/connect)$/.exec(path) : null);
  const sb = m?.[1] ? s.sandboxes.get(m[1]) : undefined;
  if (!m) return fail(res, 404, `no route ${method} ${path}`);
  const sub = m[2] ?? '';
  if (sub === '/network' && s.flavor === 'cube') return fail(res, 404, 'Not Found');
  if (!sb) return fail(res, 404, `sandbox '${m[1]}' not found`);
  if (sub === '' && method === 'GET') return json(res, 200, { ...listed(s, sb), envdAccessToken: sb.secure ? sb.accessToken : null, domain: s.domain });
  if (sub === '' && method === 'DELETE') {
    s.sandboxes.delete(sb.id);
    await sb.container.remove({ force: true });
    return json(res, 204);
  }
  if (method !== 'POST' && !(sub === '/network' && method === 'PUT')) return fail(res, 405, 'method not allowed');
  const body = await readJson(req);
  if (sub === '/timeout') {
    sb.endAt = new Date(Date.now() + Number(body.timeout ?? 0) * 1000);
    return json(res, 204);
  }
  if (sub === '/refreshes') {
    sb.endAt = new Date(sb.endAt.getTime() + Math.min(3600, Number(body.duration ?? 60)) * 1000);
    return json(res, 204);
  }
  if (sub === '/connect') {
    sb.endAt = new Date(Math.max(sb.endAt.getTime(), Date.now() + Number(body.timeout ?? 300) * 1000));
    return json(res, 200, created(s, sb));
  }
  if (sub === '/network') {
    const record = updateRecord(sb.id, body);
    const bad = networkProblem(record.allowInternetAccess, record.network);
    if (bad) return fail(res, 400, bad);
    sb.network = record.network;
    s.networkLog.push(record);
    return json(res, 204);
  }
  return fail(res, 404, `no route ${method} ${path}`);
}
