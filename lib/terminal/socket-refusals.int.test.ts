// test-phase: pglite only. What it proves happens in the engine or the package manager; its
// database writes are the job and store operations other files run on both engines.
// /ws/terminal against bad input on real parts: every refusal before the handshake with its HTTP
// status and reason, and every bad frame after it with its close code, an error frame first, and the
// shell gone. After each, nothing is left running in the sandbox and the next terminal still opens.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/db/schema';
import { updateTerminalSettings } from '@/lib/settings';
import { describeDocker } from '@/test/helpers/docker';
import { waitFor } from '@/test/helpers/services';
import { type ConnectOptions, startTerminalHarness, TerminalClient, type TerminalHarness } from '@/test/helpers/terminal-harness';
import { bounded, markedPids, noShellsLeft, openTerminal } from '@/test/helpers/terminal-probe';
import { TerminalService } from './service';
import { TICKET_TTL_MS } from './ticket';

describeDocker('terminal socket refusals', () => {
  let h: TerminalHarness;
  let other: string;
  beforeAll(async () => {
    h = await startTerminalHarness();
    other = await h.startSandbox();
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });
  // A failed test must not leave its terminal behind for the next one's checks.
  afterEach(async () => {
    if (h.ts.services.terminals.list().length === 0) return;
    await h.ts.services.terminals.manager.closeAll();
    await noShellsLeft(h);
  });

  const ticket = async (user = h.users.admin, o: { instanceId?: string; sessionId?: string } = {}) => {
    const t = await h.ticket(user, o);
    expect(t.status).toBe(200);
    return t.json.ticket as string;
  };
  /** The upgrade must be refused: its status and parsed body. */
  const refused = async (o: Partial<ConnectOptions>) => {
    const r = await TerminalClient.connect(h.port, { ticket: null, sandbox: h.instanceId, cookie: h.users.admin.cookie, ...o });
    if (r instanceof TerminalClient) {
      await r.close();
      throw new Error('the upgrade was accepted');
    }
    return { status: r.refused, error: JSON.parse(r.body).error };
  };
  /** No shell was started by the refusal, and the server still opens a terminal. */
  const afterRefusal = async () => {
    expect(h.ts.services.terminals.list()).toEqual([]);
    expect(await markedPids(h)).toEqual([]);
    const c = await openTerminal(h, h.users.admin);
    await h.ts.services.terminals.manager.close(c.ready!.sessionId);
    expect((await bounded(c.waitClosed(), 'close')).code).toBe(4008);
    await noShellsLeft(h);
  };

  describe('before the upgrade', () => {
    it('refuses a missing, malformed, unknown or reused ticket with 401 and the refusal', async () => {
      const cases: [ConnectOptions['ticket'], string][] = [
        [null, 'missing'],
        ['not-a-ticket', 'unknown'],
        ['A'.repeat(43), 'unknown'],
      ];
      for (const [t, refusal] of cases) {
        const r = await refused({ ticket: t });
        expect([t, r.status, r.error.code, r.error.details]).toEqual([t, 401, 'unauthenticated', { refusal }]);
        await afterRefusal();
      }
      const spent = await ticket();
      const c = await TerminalClient.connect(h.port, { ticket: spent, sandbox: h.instanceId, cookie: h.users.admin.cookie });
      if (!(c instanceof TerminalClient)) throw new Error(`refused ${c.refused}`);
      await bounded(
        c.until(() => !!c.ready),
        'ready',
      );
      await h.ts.services.terminals.manager.close(c.ready!.sessionId);
      await noShellsLeft(h);
      const r = await refused({ ticket: spent });
      expect([r.status, r.error.details]).toEqual([401, { refusal: 'reused' }]);
      await afterRefusal();
    });

    it('refuses an expired ticket with 401', async () => {
      const s = h.ts.services;
      const real = s.terminals;
      let skew = 0;
      const clocked = new TerminalService({ sandboxes: s.sandboxes, user: (id) => s.users.get(id), now: () => Date.now() + skew });
      s.terminals = clocked;
      try {
        const t = await ticket();
        skew = TICKET_TTL_MS + 1000;
        const r = await refused({ ticket: t });
        expect([r.status, r.error.code, r.error.details]).toEqual([401, 'unauthenticated', { refusal: 'expired' }]);
        expect(clocked.list()).toEqual([]);
      } finally {
        s.terminals = real;
        await clocked.closeAll();
      }
      await afterRefusal();
    });

    it('refuses a ticket for another sandbox, from another Origin, or a cookie client with no Origin, with 403', async () => {
      let r = await refused({ ticket: await ticket(h.users.admin, { instanceId: other }) });
      expect([r.status, r.error.code, r.error.details]).toEqual([403, 'forbidden', { refusal: 'other_sandbox' }]);
      expect(await markedPids(h, other)).toEqual([]);
      await afterRefusal();
      // Same host as the socket, so the console's own Origin check passes and the ticket's binding decides.
      r = await refused({ ticket: await ticket(), origin: `http://127.0.0.1:${h.port}` });
      expect([r.status, r.error.details]).toEqual([403, { refusal: 'wrong_origin' }]);
      await afterRefusal();
      r = await refused({ ticket: await ticket(), origin: null });
      expect([r.status, r.error.code]).toEqual([403, 'forbidden']);
      await afterRefusal();
    });

    it('refuses a viewer at the ticket route and at the upgrade with 403', async () => {
      const t = await h.ticket(h.users.viewer);
      expect([t.status, t.json.error.code]).toEqual([403, 'forbidden']);
      const r = await refused({ ticket: await ticket(), cookie: h.users.viewer.cookie });
      expect([r.status, r.error.code]).toEqual([403, 'forbidden']);
      await afterRefusal();
    });

    it('refuses absurd geometry, a bad offset and a session the ticket was not issued for with 400', async () => {
      const bad: Partial<ConnectOptions>[] = [
        { cols: '0' },
        { cols: '10000' },
        { cols: '-5' },
        { cols: 'abc' },
        { cols: '1e2' },
        { rows: '' },
        { offset: -1 as never },
        { offset: 'abc' as never },
        { offset: '1.5' as never },
        { session: 'a0b1c2d3-0000-4000-8000-000000000000' },
      ];
      for (const o of bad) {
        const r = await refused({ ticket: await ticket(), ...o });
        expect([o, r.status, r.error.code]).toEqual([o, 400, 'validation']);
        await afterRefusal();
      }
    });

    it('refuses a re-attach to another user’s session with 404 at the ticket route', async () => {
      const mine = await openTerminal(h, h.users.admin);
      const stranger = await h.newUser('admin', 'stranger@term.test');
      const t = await h.ticket(stranger, { sessionId: mine.ready!.sessionId });
      expect([t.status, t.json.error.code]).toEqual([404, 'not_found']);
      expect(h.ts.services.terminals.list().map((s) => s.id)).toEqual([mine.ready!.sessionId]);
      await h.ts.services.terminals.manager.close(mine.ready!.sessionId);
      await noShellsLeft(h);
      await afterRefusal();
    });

    it('refuses a sandbox that is not running with 409, at the upgrade and at the ticket route', async () => {
      const t = await ticket(h.users.admin, { instanceId: other });
      const sandboxId = other.split('~')[1]!;
      await h.docker.getContainer(sandboxId).stop({ t: 0 });
      const r = await refused({ ticket: t, sandbox: other });
      expect([r.status, r.error.code]).toEqual([409, 'invalid_state']);
      const again = await h.ticket(h.users.admin, { instanceId: other });
      expect([again.status, again.json.error.code]).toEqual([409, 'invalid_state']);
      await afterRefusal();
    });

    it('refuses a terminal past the per-user limit with 429, at the upgrade and at the ticket route', async () => {
      const db = h.ts.services.database.db;
      await updateTerminalSettings(db, h.users.owner.actor, { maxPerUser: 1 });
      try {
        const [first, second] = [await ticket(), await ticket()];
        const c = await TerminalClient.connect(h.port, { ticket: first, sandbox: h.instanceId, cookie: h.users.admin.cookie });
        if (!(c instanceof TerminalClient)) throw new Error(`refused ${c.refused}`);
        await bounded(
          c.until(() => !!c.ready),
          'ready',
        );
        c.type('echo one-$((1+1))\r');
        await bounded(c.waitFor(/one-2/), 'the shell');
        const r = await refused({ ticket: second });
        expect([r.status, r.error.code, r.error.details]).toEqual([429, 'rate_limited', { limit: 'per_user', max: 1 }]);
        const t = await h.ticket(h.users.admin);
        expect([t.status, t.json.error.code]).toEqual([429, 'rate_limited']);
        expect(await markedPids(h)).toHaveLength(1);
        await h.ts.services.terminals.manager.close(c.ready!.sessionId);
        await noShellsLeft(h);
      } finally {
        await updateTerminalSettings(db, h.users.owner.actor, { maxPerUser: 3 });
      }
      await afterRefusal();
    });
  });

  describe('after the upgrade', () => {
    const huge = (n: number) => JSON.stringify({ type: 'ping', pad: 'x'.repeat(n) });
    const cases: [string, (c: TerminalClient) => void, number, string][] = [
      ['a binary frame of 4097 bytes', (c) => c.ws.send(Buffer.alloc(4097, 0x61), { binary: true }), 4003, 'limit_exceeded'],
      ['a text frame over 1024 bytes', (c) => c.ws.send(huge(1024)), 4003, 'limit_exceeded'],
      ['invalid UTF-8 in a text frame', (c) => c.ws.send(Buffer.from([0x7b, 0xc3, 0x28, 0x7d]), { binary: false }), 4004, 'bad_frame'],
      ['non-JSON text', (c) => c.ws.send('resize 80x24'), 4004, 'bad_frame'],
      ['an unknown control type', (c) => c.control({ type: 'exec', argv: ['id'] }), 4004, 'bad_frame'],
      ['a resize to 0 columns', (c) => c.control({ type: 'resize', cols: 0, rows: 24 }), 4004, 'bad_frame'],
      ['a resize to 501 rows', (c) => c.control({ type: 'resize', cols: 80, rows: 501 }), 4004, 'bad_frame'],
      ['a fractional resize', (c) => c.control({ type: 'resize', cols: 1.5, rows: 24 }), 4004, 'bad_frame'],
      ['a resize with a string', (c) => c.control({ type: 'resize', cols: '80', rows: 24 }), 4004, 'bad_frame'],
      ['200 resize frames in one burst', (c) => Array.from({ length: 200 }, () => c.control({ type: 'resize', cols: 90, rows: 30 })), 4003, 'limit_exceeded'],
    ];

    it.each(cases)('closes on %s with its code after an error frame, and the shell ends', async (_what, send, code, reason) => {
      const c = await openTerminal(h, h.users.admin);
      const sessionId = c.ready!.sessionId;
      send(c);
      const closed = await bounded(c.waitClosed(), 'close');
      expect(closed).toEqual({ code, reason });
      expect(c.frames.filter((f) => f.type === 'error')).toEqual([{ type: 'error', code: reason, message: expect.any(String) }]);
      expect(c.frames.at(-1)?.type).toBe('error');
      await noShellsLeft(h, h.instanceId, sessionId);
      expect(h.ts.services.terminals.list()).toEqual([]);
      await afterRefusal();
    });

    it('ends the shell of a client that breaks the protocol before it was told the terminal is ready', async () => {
      const db = h.ts.services.database.db;
      const starts = async () => (await db.select().from(auditLog).where(eq(auditLog.action, 'sandbox.terminal.start'))).length;
      const before = await starts();
      const c = await TerminalClient.connect(h.port, { ticket: await ticket(), sandbox: h.instanceId, cookie: h.users.admin.cookie });
      if (!(c instanceof TerminalClient)) throw new Error(`refused ${c.refused}`);
      c.ws.send('not json');
      expect(await bounded(c.waitClosed(), 'close')).toEqual({ code: 4004, reason: 'bad_frame' });
      // The shell opens after the socket: once it has, it must end rather than wait out the grace period.
      await waitFor(async () => (await starts()) > before, 'the session to open');
      await waitFor(async () => h.ts.services.terminals.list().length === 0, 'the session to end', 20_000);
      await noShellsLeft(h);
      await afterRefusal();
    });
  });
});
