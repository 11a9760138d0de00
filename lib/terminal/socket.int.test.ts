// The terminal through its two doors on real parts: the ticket route, then /ws/terminal on a
// loopback server into a running Docker sandbox.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDocker } from '@/test/helpers/docker';
import { startTerminalHarness, TerminalClient, type TerminalHarness } from '@/test/helpers/terminal-harness';

describeDocker('terminal socket', () => {
  let h: TerminalHarness;
  beforeAll(async () => {
    h = await startTerminalHarness();
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  it('opens a shell, echoes, and re-attaches after a drop without repeating output', async () => {
    const t = await h.ticket(h.users.admin);
    expect(t.status).toBe(200);
    expect(t.json).toMatchObject({ sessionId: null, idleSeconds: 900, persistent: false });
    const c = await TerminalClient.connect(h.port, { ticket: t.json.ticket, sandbox: h.instanceId, cols: 100, rows: 30, cookie: h.users.admin.cookie });
    if (!(c instanceof TerminalClient)) throw new Error(`refused ${c.refused} ${c.body}`);
    await c.until(() => !!c.ready);
    c.type('echo he""llo-$((40+2))\r');
    await c.waitFor(/hello-42/);
    const sessionId = c.ready!.sessionId;
    const offset = c.offset;
    c.ws.terminate();
    await c.waitClosed();
    const t2 = await h.ticket(h.users.admin, { sessionId });
    expect(t2.status).toBe(200);
    const c2 = await TerminalClient.connect(h.port, {
      ticket: t2.json.ticket,
      sandbox: h.instanceId,
      session: sessionId,
      offset,
      cookie: h.users.admin.cookie,
    });
    if (!(c2 instanceof TerminalClient)) throw new Error(`refused ${c2.refused} ${c2.body}`);
    await c2.until(() => !!c2.ready);
    expect(c2.ready).toMatchObject({ sessionId, replayFrom: offset });
    c2.type('stty size\r');
    await c2.waitFor(/30 100/);
    expect(c2.out).not.toContain('hello-42');
    await c2.close();
  });

  it('refuses a viewer at the ticket route and the upgrade', async () => {
    expect((await h.ticket(h.users.viewer)).status).toBe(403);
    const r = await TerminalClient.connect(h.port, { ticket: 'A'.repeat(43), sandbox: h.instanceId, cookie: h.users.viewer.cookie });
    expect(r).toMatchObject({ refused: 403 });
  });
});
