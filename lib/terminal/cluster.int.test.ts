// Terminals across two replicas on one PostgreSQL, in one process: replica A is the terminal harness,
// replica B a second Services on the same database with its own data dir and its own loopback server.
// A ticket issued on one is redeemed on the other, once; a re-attach to A's shell landing on B is
// relayed to A; B's admin lists A's session and closes it.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/db/schema';
import { terminalSocket } from '@/lib/http/terminal-socket';
import { SocketRouter } from '@/lib/http/ws-router';
import { principalOf } from '@/lib/sandbox/instances/principal';
import { resolve } from '@/lib/sandbox/instances/service';
import { dbKind } from '@/test/helpers/db';
import { describeDocker } from '@/test/helpers/docker';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { ORIGIN, startTerminalHarness, TerminalClient, type TerminalHarness, type TerminalUser } from '@/test/helpers/terminal-harness';
import { bounded, markedPids, noShellsLeft } from '@/test/helpers/terminal-probe';

// Two Services on one database need a server engine: PGlite is one process's.
const describeCluster = dbKind === 'postgres' ? describeDocker : (name: string, fn: () => void) => describe.skip(`${name} (PostgreSQL only)`, fn);

describeCluster('terminals across replicas', () => {
  let h: TerminalHarness;
  let b: TestServices;
  let bServer: http.Server;
  let bPort: number;
  const shared = { NEXTAUTH_SECRET: randomBytes(32).toString('hex'), SKILLDOCK_SECRET_KEY: randomBytes(32).toString('base64url') };

  beforeAll(async () => {
    h = await startTerminalHarness({ env: shared });
    await h.ts.services.replica.setAddress(`http://127.0.0.1:${h.port}`);
    b = await startTestServices({ worker: false, env: { ...shared, DATABASE_URL: h.ts.databaseUrl!, SKILLDOCK_ALLOWED_ORIGINS: ORIGIN } });
    const router = new SocketRouter(async () => b.services);
    router.register(terminalSocket);
    bServer = http.createServer((_req, res) => res.writeHead(404).end());
    bServer.on('upgrade', (req, socket, head) => router.handleUpgrade(req, socket, head));
    await new Promise<void>((r) => bServer.listen(0, '127.0.0.1', r));
    bPort = (bServer.address() as AddressInfo).port;
    await b.services.replica.setAddress(`http://127.0.0.1:${bPort}`);
  }, 180_000);
  afterAll(async () => {
    await b?.services.terminals.closeAll();
    if (bServer) await new Promise<void>((r) => bServer.close(() => r()));
    await b?.stop();
    await h?.stop();
  });

  /** A ticket issued through replica B's service (A's goes through the ticket route of the harness). */
  const ticketOnB = async (user: TerminalUser, sessionId?: string) => {
    const labels = (await resolve(b.services.sandboxes, h.instanceId)).sandbox.labels;
    const t = await b.services.terminals.issueTicket(user.actor, h.instanceId, {
      origin: ORIGIN,
      sessionId,
      shared: principalOf(labels) !== `user:${user.actor.userId}`,
    });
    return t.ticket;
  };
  const connect = async (port: number, user: TerminalUser, ticket: string, extra: { session?: string; offset?: number } = {}) => {
    const c = await TerminalClient.connect(port, { ticket, sandbox: h.instanceId, cookie: user.cookie, ...extra });
    if (!(c instanceof TerminalClient)) throw new Error(`refused ${c.refused} ${c.body}`);
    await bounded(
      c.until(() => !!c.ready),
      'ready',
    );
    return c;
  };
  const refusal = async (port: number, user: TerminalUser, ticket: string) => {
    const r = await TerminalClient.connect(port, { ticket, sandbox: h.instanceId, cookie: user.cookie });
    if (r instanceof TerminalClient) {
      await r.close();
      throw new Error('the upgrade was accepted');
    }
    return { status: r.refused, details: JSON.parse(r.body).error.details };
  };

  it('redeems a ticket issued on A at B, once, and refuses it again on either replica', async () => {
    const admin = h.users.admin;
    const t = await h.ticket(admin);
    expect(t.status).toBe(200);
    const c = await connect(bPort, admin, t.json.ticket);
    c.type('echo on""-b-$((1+1))\r');
    await bounded(c.waitFor(/on-b-2/), 'the shell on B');
    // Served by B, the replica the new open landed on.
    expect(b.services.terminals.list().map((s) => s.id)).toEqual([c.ready!.sessionId]);
    expect(h.ts.services.terminals.list()).toEqual([]);
    expect(await refusal(bPort, admin, t.json.ticket)).toEqual({ status: 401, details: { refusal: 'reused' } });
    expect(await refusal(h.port, admin, t.json.ticket)).toEqual({ status: 401, details: { refusal: 'reused' } });
    const fromB = await ticketOnB(admin);
    const c2 = await connect(h.port, admin, fromB);
    expect(h.ts.services.terminals.list().map((s) => s.id)).toEqual([c2.ready!.sessionId]);
    expect(await refusal(h.port, admin, fromB)).toEqual({ status: 401, details: { refusal: 'reused' } });
    expect(await refusal(bPort, admin, fromB)).toEqual({ status: 401, details: { refusal: 'reused' } });
    await c.close();
    await c2.close();
    await b.services.terminals.manager.closeAll();
    await h.ts.services.terminals.manager.closeAll();
    await noShellsLeft(h);
  });

  it('relays a re-attach to the shell held by A through B, both ways, and closes both sides together', async () => {
    const admin = h.users.admin;
    const t = await h.ticket(admin);
    const a = await connect(h.port, admin, t.json.ticket);
    a.type('echo he""ld-on-a\r');
    await bounded(a.waitFor(/held-on-a/), 'the shell on A');
    const sessionId = a.ready!.sessionId;
    const offset = a.offset;
    a.ws.terminate();
    await a.waitClosed();
    const r = await connect(bPort, admin, await ticketOnB(admin, sessionId), { session: sessionId, offset });
    expect(r.ready).toMatchObject({ sessionId, replayFrom: offset });
    r.type('echo re""lay-$((6*7))\r');
    await bounded(r.waitFor(/relay-42/), 'the relayed echo');
    expect(r.out).not.toContain('held-on-a');
    // The shell stays on A; B holds only the relay.
    expect(h.ts.services.terminals.list().map((s) => [s.id, s.attached])).toEqual([[sessionId, true]]);
    expect(b.services.terminals.list()).toEqual([]);
    // The browser leaving ends the upstream socket: A's session is detached (kept for the grace).
    await r.close();
    await waitFor(async () => h.ts.services.terminals.list()[0]?.attached === false, 'A to see the relay close');
    // The holder ending the shell closes the browser's socket at B with the holder's code.
    const r2 = await connect(bPort, admin, await ticketOnB(admin, sessionId), { session: sessionId });
    await h.ts.services.terminals.manager.close(sessionId, 'closed');
    expect((await bounded(r2.waitClosed(), 'close through the relay')).code).toBe(4008);
    await noShellsLeft(h);
  });

  it('lists a session held by A in the admin list on B, and B closes it on A, audited once', async () => {
    const admin = h.users.admin;
    const t = await h.ticket(admin);
    const a = await connect(h.port, admin, t.json.ticket);
    const sessionId = a.ready!.sessionId;
    const listed = await b.services.terminals.listAll();
    expect(listed.map((s) => [s.id, s.userId, s.sandboxId])).toEqual([[sessionId, admin.actor.userId, h.instanceId]]);
    expect(await markedPids(h, h.instanceId, sessionId)).not.toEqual([]);
    await b.services.terminals.close(h.users.owner.actor, sessionId);
    // The close returns once the holder has ended it: neither list shows it any more.
    expect(await b.services.terminals.listAll()).toEqual([]);
    expect(await h.ts.services.terminals.listAll()).toEqual([]);
    expect((await bounded(a.waitClosed(), 'A to close the shell')).code).toBe(4008);
    await noShellsLeft(h, h.instanceId, sessionId);
    const closes = await h.ts.services.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'sandbox.terminal.close'), sql`${auditLog.before}->>'sessionId' = ${sessionId}`));
    expect(closes[0]?.n).toBe(1);
  });
});
