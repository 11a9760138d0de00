// One principal per sandbox, through the terminal and the exec box on real parts: a person's own
// sandbox gets their personal variables; someone else's sandbox is refused unless they attach on
// purpose, and then runs without their personal variables, audited as shared.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { setEnv } from '@/lib/sandbox/env/store';
import { execInInstance } from '@/lib/sandbox/instances/service';
import { describeDocker } from '@/test/helpers/docker';
import { auditRows } from '@/test/helpers/skills-api';
import { startTerminalHarness, TerminalClient, type TerminalHarness } from '@/test/helpers/terminal-harness';

describeDocker('sandboxes shared between principals only on purpose', () => {
  let h: TerminalHarness;
  beforeAll(async () => {
    h = await startTerminalHarness();
    const { db } = h.ts.services.database;
    const { secrets } = h.ts.services;
    // The harness's sandbox belongs to the admin; the owner is another person.
    for (const [who, value] of [
      ['admin', 'admin-personal-value'],
      ['owner', 'owner-personal-value'],
    ] as const) {
      const actor = h.users[who].actor;
      await setEnv(db, secrets, actor, { level: 'personal_sandbox', configId: h.configId, userId: actor.userId ?? '' }, 'PERSONAL_TOKEN', value);
    }
  }, 120_000);
  afterAll(async () => {
    await h?.stop();
  });

  async function shellEcho(who: 'admin' | 'owner', shared: boolean): Promise<string> {
    const t = await h.ticket(h.users[who], { shared });
    expect(t.status, JSON.stringify(t.json)).toBe(200);
    const c = await TerminalClient.connect(h.port, { ticket: t.json.ticket, sandbox: h.instanceId, cookie: h.users[who].cookie });
    if (!(c instanceof TerminalClient)) throw new Error(`refused ${c.refused} ${c.body}`);
    await c.until(() => !!c.ready);
    c.type('echo "[t=$PERSONAL_TOKEN]"\r');
    await c.waitFor(/\n\[t=[^\]]*\]/);
    const seen = /\n\[t=([^\]]*)\]/.exec(c.out)?.[1] ?? '?';
    await h.ts.services.terminals.manager.close(c.ready!.sessionId);
    return seen;
  }

  it('a terminal in your own sandbox has your variables; another person must choose to attach, and gets none of theirs', async () => {
    expect(await shellEcho('admin', false)).toBe('admin-personal-value');
    const refused = await h.ticket(h.users.owner, { shared: false });
    expect(refused.status).toBe(409);
    expect(refused.json.error.details).toMatchObject({ reason: 'shared_sandbox', principal: `user:${h.users.admin.actor.userId}` });
    const ok = await h.ticket(h.users.owner, { shared: true });
    expect(ok.json.sharedWith).toBe(`user:${h.users.admin.actor.userId}`);
    expect(await shellEcho('owner', true)).toBe('');
  });

  it('the exec box follows the same rule, and the audit record says it was shared', async () => {
    const sandboxes = h.ts.services.sandboxes;
    const argv = ['sh', '-c', 'echo "[t=$PERSONAL_TOKEN]"'];
    const own = await execInInstance(sandboxes, h.users.admin.actor, h.instanceId, { argv });
    expect(own.stdout).toBe('[t=admin-personal-value]\n');
    const refused = await execInInstance(sandboxes, h.users.owner.actor, h.instanceId, { argv }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'conflict', details: { reason: 'shared_sandbox' } });
    const shared = await execInInstance(sandboxes, h.users.owner.actor, h.instanceId, { argv, shared: true });
    expect(shared.stdout).toBe('[t=]\n');
    const last = (await auditRows(h.ts.services, 'sandbox.instance.exec')).at(-1);
    expect(JSON.parse(last?.after ?? '{}')).toMatchObject({ shared: true, principal: `user:${h.users.admin.actor.userId}` });
    // Nothing of anyone's is in the container's own environment.
    const { Config } = await h.docker.getContainer(h.instanceId.split('~')[1]).inspect();
    expect((Config.Env ?? []).join('\n')).not.toMatch(/personal-value/);
  });
});
