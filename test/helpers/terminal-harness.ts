// The terminal end to end without a browser: real Services, the real upgrade router with the
// terminal route on a loopback HTTP server, a running Docker sandbox from the offline busybox image,
// users of each role, and a WebSocket client that answers the shell's cursor-position query as
// xterm.js does.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Docker from 'dockerode';
import { eq } from 'drizzle-orm';
import WebSocket from 'ws';
import { sandboxConfigs } from '@/db/schema';
import { api } from '@/lib/api/contracts';
import { ops } from '@/lib/api/operations';
import { type Actor, ROLE_PERMISSIONS, type Role } from '@/lib/auth';
import { route } from '@/lib/http/route';
import { terminalSocket } from '@/lib/http/terminal-socket';
import { SocketRouter } from '@/lib/http/ws-router';
import { createConfig } from '@/lib/sandbox/config/store';
import { principalOf } from '@/lib/sandbox/instances/principal';
import { resolve, startInstance } from '@/lib/sandbox/instances/service';
import { setServices } from '@/lib/services';
import type { ServerFrame } from '@/lib/terminal/frames';
import { apiUser } from './api';
import { ensureBusyboxImage } from './sandbox-images';
import { startTestServices, type TestServices } from './services';
import { sessionCookieFor } from './session';

export const ORIGIN = 'http://console.test';
const DSR = '\x1b[6n';

export interface TerminalUser {
  actor: Actor;
  token: string;
  cookie: string;
}

export interface TerminalHarness {
  ts: TestServices;
  port: number;
  docker: Docker;
  image: string;
  configId: string;
  /** A running sandbox's instance id. */
  instanceId: string;
  users: Record<'owner' | 'admin' | 'viewer', TerminalUser>;
  newUser(role: Role, email: string): Promise<TerminalUser>;
  /**
   * Asks for a ticket as `user` (cookie, from ORIGIN unless `origin` says otherwise). Like the
   * console, it attaches on purpose (`shared`) to a sandbox that is not the user's own, unless told.
   */
  ticket(
    user: TerminalUser,
    opts?: { instanceId?: string; sessionId?: string; origin?: string | null; shared?: boolean },
  ): Promise<{ status: number; json: any }>;
  /** Starts another sandbox from the harness config. */
  startSandbox(): Promise<string>;
  stop(): Promise<void>;
}

export async function startTerminalHarness(opts: { env?: Record<string, string> } = {}): Promise<TerminalHarness> {
  const docker = new Docker();
  const image = await ensureBusyboxImage(docker);
  const ts = await startTestServices({ worker: false, env: { SKILLDOCK_ALLOWED_ORIGINS: ORIGIN, ...opts.env } });
  const s = ts.services;
  setServices(Promise.resolve(s));
  const router = new SocketRouter(async () => s);
  router.register(terminalSocket);
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) => router.handleUpgrade(req, socket, head));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const newUser = async (role: Role, email: string): Promise<TerminalUser> => {
    const u = await apiUser(s, { email, role, tokenName: role, permissions: [...ROLE_PERMISSIONS[role]] });
    return { ...u, cookie: await sessionCookieFor(s.authSecret, u.actor.userId ?? '') };
  };
  const users = {
    owner: await newUser('owner', 'owner@term.test'),
    admin: await newUser('admin', 'admin@term.test'),
    viewer: await newUser('viewer', 'viewer@term.test'),
  };
  const cfg = await createConfig(
    { db: s.database.db, secrets: s.secrets, usage: {} as never, validate: { tlsRoots: [], workspaceRoots: [] } },
    users.owner.actor,
    {
      name: `term-${Date.now()}`,
      backend: 'docker',
      description: '',
      config: { image, host: process.env.DOCKER_HOST ?? '', networkMode: 'none' },
    } as never,
  );
  await s.database.db.update(sandboxConfigs).set({ enabled: true }).where(eq(sandboxConfigs.id, cfg.id));
  const started: string[] = [];
  const startSandbox = async () => {
    const inst = await startInstance(s.sandboxes, users.admin.actor, cfg.id);
    started.push(inst.sandboxId);
    return inst.id;
  };
  const instanceId = await startSandbox();
  const ticketRoute = route(ops.openTerminal);
  return {
    ts,
    port,
    docker,
    image,
    configId: cfg.id,
    instanceId,
    users,
    newUser,
    startSandbox,
    async ticket(user, o = {}) {
      const id = o.instanceId ?? instanceId;
      const labels = await resolve(s.sandboxes, id).then(
        (r) => r.sandbox.labels,
        () => ({}) as Record<string, string>,
      );
      const shared = o.shared ?? principalOf(labels) !== `user:${user.actor.userId}`;
      const headers: Record<string, string> = { cookie: user.cookie, 'content-type': 'application/json', host: 'console.test' };
      const origin = o.origin === undefined ? ORIGIN : o.origin;
      if (origin) headers.origin = origin;
      const res = await ticketRoute(
        new Request(`${ORIGIN}${api.openTerminal.path.replace('{id}', encodeURIComponent(id))}`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ ...(o.sessionId ? { sessionId: o.sessionId } : {}), ...(shared ? { shared: true } : {}) }),
        }),
        { params: Promise.resolve({ id }) } as never,
      );
      return { status: res.status, json: await res.json() };
    },
    async stop() {
      await s.terminals.closeAll();
      await new Promise<void>((r) => server.close(() => r()));
      for (const id of started)
        await docker
          .getContainer(id)
          .remove({ force: true, v: true })
          .catch(() => undefined);
      await ts.stop();
    },
  };
}

export interface ConnectOptions {
  ticket: string | null;
  sandbox?: string | null;
  cols?: string | number;
  rows?: string | number;
  session?: string;
  offset?: number;
  origin?: string | null;
  cookie?: string;
  /** Send the cursor-position answer to ESC[6n (default true). */
  answerDsr?: boolean;
}

/** A terminal client over a real WebSocket; `out` is every byte received (latin1). */
export class TerminalClient {
  out = '';
  frames: ServerFrame[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: { test: () => boolean; resolve: () => void }[] = [];
  private constructor(
    readonly ws: WebSocket,
    private readonly answerDsr: boolean,
  ) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        const s = (data as Buffer).toString('latin1');
        this.out += s;
        if (this.answerDsr) for (let i = s.indexOf(DSR); i >= 0; i = s.indexOf(DSR, i + 1)) ws.send(Buffer.from('\x1b[1;1R'), { binary: true });
      } else this.frames.push(JSON.parse(String(data)) as ServerFrame);
      this.check();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.check();
    });
  }

  /** Connects; resolves with the client once open, or with the HTTP status the upgrade was refused with. */
  static connect(port: number, o: ConnectOptions): Promise<TerminalClient | { refused: number; body: string }> {
    const q = new URLSearchParams();
    if (o.ticket !== null) q.set('ticket', o.ticket);
    if (o.sandbox !== null && o.sandbox !== undefined) q.set('sandbox', o.sandbox);
    if (o.cols !== undefined) q.set('cols', String(o.cols));
    if (o.rows !== undefined) q.set('rows', String(o.rows));
    if (o.session) q.set('session', o.session);
    if (o.offset !== undefined) q.set('offset', String(o.offset));
    const headers: Record<string, string> = {};
    if (o.cookie) headers.cookie = o.cookie;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/terminal?${q}`, {
      headers,
      ...(o.origin === null ? {} : { origin: o.origin ?? ORIGIN }),
    });
    return new Promise((resolve) => {
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => {
          body += c.toString();
        });
        res.on('end', () => resolve({ refused: res.statusCode ?? 0, body }));
      });
      ws.once('open', () => resolve(new TerminalClient(ws, o.answerDsr ?? true)));
      ws.once('error', () => undefined);
    });
  }

  type(s: string): void {
    this.ws.send(Buffer.from(s), { binary: true });
  }

  control(frame: unknown): void {
    this.ws.send(JSON.stringify(frame));
  }

  get ready(): Extract<ServerFrame, { type: 'ready' }> | undefined {
    return this.frames.find((f): f is Extract<ServerFrame, { type: 'ready' }> => f.type === 'ready');
  }

  /** The offset just past the last byte received. */
  get offset(): number {
    const r = this.ready;
    if (!r) throw new Error('not ready');
    return r.replayFrom + Buffer.byteLength(this.out, 'latin1');
  }

  waitFor(re: RegExp): Promise<void> {
    return this.until(() => re.test(this.out));
  }

  waitClosed(): Promise<{ code: number; reason: string }> {
    return this.until(() => this.closed !== null).then(() => this.closed!);
  }

  until(test: () => boolean): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ test, resolve });
      this.check();
    });
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.ws.close(1000);
    return this.waitClosed().then(() => undefined);
  }

  private check(): void {
    const met = this.waiters.filter((w) => w.test());
    this.waiters = this.waiters.filter((w) => !met.includes(w));
    for (const w of met) w.resolve();
  }
}
