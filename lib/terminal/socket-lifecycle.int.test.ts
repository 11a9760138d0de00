// test-phase: pglite only. What it proves happens in the engine or the package manager; its
// database writes are the job and store operations other files run on both engines.
// How an open terminal ends on real parts, seen from its socket and from inside the sandbox: the
// access re-check cutting off a disabled or demoted user, an admin closing it, its sandbox removed;
// and what stays behind: the admin list while it is open, the audit record after.
import { eq, like } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { auditLog, sandboxConfigs } from '@/db/schema';
import { api } from '@/lib/api/contracts';
import { ops } from '@/lib/api/operations';
import { updateUser } from '@/lib/auth/users';
import { route } from '@/lib/http/route';
import { createConfig } from '@/lib/sandbox/config/store';
import { startInstance } from '@/lib/sandbox/instances/service';
import { updateTerminalSettings } from '@/lib/settings';
import { describeDocker } from '@/test/helpers/docker';
import { waitFor } from '@/test/helpers/services';
import { ORIGIN, startTerminalHarness, type TerminalHarness, type TerminalUser } from '@/test/helpers/terminal-harness';
import { bounded, execIn, markedPids, noShellsLeft, openTerminal } from '@/test/helpers/terminal-probe';

describeDocker('terminal socket lifecycle', () => {
  let h: TerminalHarness;
  beforeAll(async () => {
    h = await startTerminalHarness();
    // Before any terminal opens: the re-check timer takes its period when the first one does.
    await updateTerminalSettings(h.ts.services.database.db, h.users.owner.actor, { recheckSeconds: 5 });
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });
  afterEach(async () => {
    if (h.ts.services.terminals.list().length === 0) return;
    await h.ts.services.terminals.manager.closeAll();
    await noShellsLeft(h);
  });

  const terminalAudit = async (sessionId: string) =>
    (await h.ts.services.database.db.select().from(auditLog).where(like(auditLog.action, 'sandbox.terminal.%'))).filter(
      (r) => (r.after as { sessionId?: string } | null)?.sessionId === sessionId || (r.before as { sessionId?: string } | null)?.sessionId === sessionId,
    );
  const listed = (sessionId: string) => h.ts.services.terminals.list().find((s) => s.id === sessionId);

  const cutOff = async (user: TerminalUser, change: { disabled: true } | { role: 'operator' }) => {
    const c = await openTerminal(h, user);
    const sessionId = c.ready!.sessionId;
    expect(await markedPids(h, h.instanceId, sessionId)).not.toEqual([]);
    await updateUser(h.ts.services.database.db, h.users.owner.actor, user.actor.userId!, change);
    h.ts.services.users.invalidate(user.actor.userId!);
    // Bounded by a few re-check periods; when within them it closes is not asserted.
    expect(await bounded(c.waitClosed(), 'the re-check to cut the terminal off', 30_000)).toEqual({ code: 4001, reason: 'auth_revoked' });
    await noShellsLeft(h, h.instanceId, sessionId);
    expect(listed(sessionId)).toBeUndefined();
    const end = await waitFor(async () => (await terminalAudit(sessionId)).find((r) => r.action === 'sandbox.terminal.end'), 'the end record');
    expect(end.after).toMatchObject({ reason: 'revoked' });
  };

  it('cuts off a disabled user’s open terminal with 4001 at the re-check', async () => {
    await cutOff(await h.newUser('admin', 'disabled@term.test'), { disabled: true });
  }, 60_000);

  it('cuts off a user demoted to operator (no sandboxes.exec) with 4001 at the re-check', async () => {
    await cutOff(await h.newUser('admin', 'demoted@term.test'), { role: 'operator' });
  }, 60_000);

  it('keeps the terminal of a user whose access did not change through a re-check', async () => {
    const c = await openTerminal(h, h.users.admin);
    // Not a timing assertion: the re-check ran at least once (it cut nothing), then the shell still answers.
    const cut = await h.ts.services.terminals.recheck();
    expect(cut).toBe(0);
    c.type('echo still-$((6*7))\r');
    await bounded(c.waitFor(/still-42/), 'the shell');
    expect(c.closed).toBeNull();
    await c.close();
  });

  it('an admin closes a session: 4008, every process it started is gone, the list and the audit record it', async () => {
    const c = await openTerminal(h, h.users.admin);
    const sessionId = c.ready!.sessionId;
    c.type('sleep 1000 &\r');
    const sleeping = async () => /sleep 1000/.test(await execIn(h, h.instanceId, ['ps', '-o', 'pid,args']));
    await waitFor(sleeping, 'sleep 1000 to run');
    expect(listed(sessionId)).toMatchObject({ user: 'admin@term.test', userId: h.users.admin.actor.userId, sandboxId: h.instanceId, attached: true });
    expect(await h.ts.services.terminals.close(h.users.owner.actor, sessionId)).toEqual({ closed: true });
    expect(await bounded(c.waitClosed(), 'close')).toEqual({ code: 4008, reason: 'closed_by_admin' });
    expect(await sleeping()).toBe(false);
    expect(await markedPids(h, h.instanceId, sessionId)).toEqual([]);
    expect(listed(sessionId)).toBeUndefined();
    const rows = await waitFor(async () => {
      const r = await terminalAudit(sessionId);
      return r.some((x) => x.action === 'sandbox.terminal.end') && r;
    }, 'the end record');
    const by = (action: string) => rows.filter((r) => r.action === action);
    expect(by('sandbox.terminal.start')).toHaveLength(1);
    expect(by('sandbox.terminal.close')).toMatchObject([{ actorLabel: h.users.owner.actor.label, targetId: h.instanceId }]);
    const [end] = by('sandbox.terminal.end');
    expect(end).toMatchObject({ actorUserId: h.users.admin.actor.userId, targetId: h.instanceId, after: { sessionId, reason: 'closed' } });
    const after = end!.after as { bytesIn: number; bytesOut: number };
    expect(after.bytesIn).toBeGreaterThan(0);
    expect(after.bytesOut).toBeGreaterThan(0);
    await expect(h.ts.services.terminals.close(h.users.owner.actor, sessionId)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a config’s idle disconnect reaches the ticket, and removing the sandbox closes its terminal with 4002', async () => {
    const s = h.ts.services;
    const cfg = await createConfig(
      { db: s.database.db, secrets: s.secrets, usage: {} as never, validate: { tlsRoots: [], workspaceRoots: [] } },
      h.users.owner.actor,
      {
        name: `term-idle-${Date.now()}`,
        backend: 'docker',
        description: '',
        config: { image: h.image, host: process.env.DOCKER_HOST ?? '', networkMode: 'none', terminalIdleDisconnectSec: 120 },
      } as never,
    );
    await s.database.db.update(sandboxConfigs).set({ enabled: true }).where(eq(sandboxConfigs.id, cfg.id));
    const inst = await startInstance(s.sandboxes, h.users.admin.actor, cfg.id);
    try {
      const t = await h.ticket(h.users.admin, { instanceId: inst.id });
      expect([t.status, t.json.idleSeconds]).toEqual([200, 120]);
      expect((await h.ticket(h.users.admin)).json.idleSeconds).toBe(900);
      const c = await openTerminal(h, h.users.admin, { instanceId: inst.id });
      const sessionId = c.ready!.sessionId;
      const remove = route(ops.removeSandbox);
      const res = await remove(
        new Request(`${ORIGIN}${api.removeSandbox.path.replace('{id}', encodeURIComponent(inst.id))}`, {
          method: 'DELETE',
          headers: { cookie: h.users.admin.cookie, origin: ORIGIN, host: 'console.test' },
        }),
        { params: Promise.resolve({ id: inst.id }) } as never,
      );
      expect(res.status).toBe(200);
      expect(await bounded(c.waitClosed(), 'close')).toEqual({ code: 4002, reason: 'sandbox_gone' });
      expect(listed(sessionId)).toBeUndefined();
      const end = await waitFor(async () => (await terminalAudit(sessionId)).find((r) => r.action === 'sandbox.terminal.end'), 'the end record');
      expect(end.after).toMatchObject({ reason: 'sandbox_gone' });
      expect(await h.docker.listContainers({ all: true, filters: { id: [inst.sandboxId] } })).toEqual([]);
    } finally {
      await h.docker
        .getContainer(inst.sandboxId)
        .remove({ force: true, v: true })
        .catch(() => undefined);
    }
  });
});
