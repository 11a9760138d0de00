// Permissions follow the principal: only agents.write mints tokens that act as an agent; the gateway
// exec runs only for the agent's own scoped token (a person's token is a typed 403); an admin demoted
// to operator loses exec through tokens minted before; terminals and the exec box need one permission;
// the exec log stores commands with secrets masked and hides them from viewers.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, execLog } from '@/db/schema';
import { type Actor, ROLE_PERMISSIONS } from '@/lib/auth';
import { createToken } from '@/lib/auth/tokens';
import { updateUser } from '@/lib/auth/users';
import { apiUser, ownerActor } from '@/test/helpers/api';
import { type ConfigFixture, docker, startConfigFixture } from '@/test/helpers/sandbox-configs';

let f: ConfigFixture;
let admin: { token: string; actor: Actor };
let operator: { token: string; actor: Actor };
let agentToken: string;
const exec = (token: string, id: string, command: string) => f.call('agentExec', token, { params: { id }, body: { command } });

beforeAll(async () => {
  f = await startConfigFixture();
  admin = await apiUser(f.s, { email: 'boss@principal.test', role: 'admin', tokenName: 'boss', permissions: [...ROLE_PERMISSIONS.admin] });
  operator = await apiUser(f.s, { email: 'op@principal.test', role: 'operator', tokenName: 'op', permissions: [...ROLE_PERMISSIONS.operator] });
  const cfg = (await f.call('createSandboxConfig', admin.token, { body: docker() })).json.id;
  for (const id of ['alpha', 'beta']) expect((await f.call('createAgent', admin.token, { body: { id, name: id, sandboxConfigId: cfg } })).status).toBe(201);
  agentToken = (
    await createToken(f.s.database.db, admin.actor, { name: 'alpha-gw', permissions: ['agents.read', 'agents.exec'], expiresInDays: 1, agentIds: ['alpha'] })
  ).token;
});
afterAll(async () => {
  await f?.stop();
});

describe('minting tokens that act as an agent', () => {
  it('an operator cannot, for any agent; nothing is written', async () => {
    const before = (await f.s.database.db.select().from(auditLog)).length;
    const err = await createToken(f.s.database.db, operator.actor, { name: 'x', permissions: ['agents.read'], expiresInDays: 1, agentIds: ['alpha'] }).catch(
      (e) => e,
    );
    expect(err.code).toBe('forbidden');
    expect(err.message).toMatch(/agents\.write/);
    expect((await f.s.database.db.select().from(auditLog)).length).toBe(before);
  });
  it('an admin can, only for agents that exist', async () => {
    const err = await createToken(f.s.database.db, admin.actor, {
      name: 'x',
      permissions: ['agents.read'],
      expiresInDays: 1,
      agentIds: ['alpha', 'ghost'],
    }).catch((e) => e);
    expect(err.code).toBe('validation');
    expect(err.message).toContain('ghost');
  });
  it('operators no longer hold agents.exec; admins do', () => {
    expect(ROLE_PERMISSIONS.operator.has('agents.exec')).toBe(false);
    expect(ROLE_PERMISSIONS.admin.has('agents.exec')).toBe(true);
  });
});

describe('the gateway exec runs only as the agent', () => {
  it("a person's token (even an admin's with agents.exec) is a 403 that says to use the agent's token", async () => {
    const before = (await f.s.database.db.select().from(execLog)).length;
    const r = await exec(admin.token, 'alpha', 'ls');
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('forbidden');
    expect(r.json.error.message).toContain('API token scoped to it');
    expect(r.json.error.hint).toMatch(/agent's own token/);
    expect((await f.s.database.db.select().from(execLog)).length).toBe(before);
  });
  it("the agent's token execs as it, and not as another agent", async () => {
    const r = await exec(agentToken, 'alpha', 'sudo ls');
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toMatchObject({ decision: 'deny', outcome: 'denied' });
    expect((await exec(agentToken, 'beta', 'ls')).status).toBe(403);
  });
  it('an admin demoted to operator: the tokens they minted stop exec at once', async () => {
    const temp = await apiUser(f.s, { email: 'temp@principal.test', role: 'admin', tokenName: 't', permissions: ['agents.read'] });
    const t = await createToken(f.s.database.db, temp.actor, {
      name: 'beta-gw',
      permissions: ['agents.read', 'agents.exec'],
      expiresInDays: 1,
      agentIds: ['beta'],
    });
    expect((await exec(t.token, 'beta', 'sudo ls')).status).toBe(200);
    await updateUser(f.s.database.db, ownerActor, temp.actor.userId!, { role: 'operator' });
    f.s.users.invalidate(temp.actor.userId!);
    const after = await exec(t.token, 'beta', 'sudo ls');
    expect(after.status).toBe(403);
    expect(after.json.error.message).toContain('agents.exec');
  });
});

describe('terminals and the exec box need the same permission', () => {
  it('both contracts name sandboxes.exec, which operators do not hold', async () => {
    const { api } = await import('@/lib/api/contracts');
    expect(api.openTerminal.permission).toBe('sandboxes.exec');
    expect(api.execSandbox.permission).toBe('sandboxes.exec');
    const { TERMINAL_PERMISSION } = await import('@/lib/terminal/service');
    expect(TERMINAL_PERMISSION).toBe('sandboxes.exec');
    expect(ROLE_PERMISSIONS.operator.has('sandboxes.exec')).toBe(false);
  });
  it('an operator is refused both with 403; an admin passes the permission check (404: no such sandbox)', async () => {
    const params = { id: 'docker~0123456789ab' };
    for (const op of ['openTerminal', 'execSandbox'] as const) {
      const body = op === 'openTerminal' ? { cols: 80, rows: 24 } : { argv: ['id'] };
      const r = await f.call(op, operator.token, { params, body });
      expect(r.status, op).toBe(403);
      expect(r.json.error.message).toContain('sandboxes.exec');
      expect((await f.call(op, admin.token, { params, body })).status, op).not.toBe(403);
    }
  });
});

describe('the exec log masks secrets and hides commands from viewers', () => {
  const secretCommand = "GITHUB_TOKEN=ghp_s3cr3t sudo curl -H 'Authorization: Bearer abc.def' https://bob:pw@example.test";
  beforeAll(async () => {
    expect((await exec(agentToken, 'alpha', secretCommand)).status).toBe(200);
  });
  it('stores and audits the command masked', async () => {
    const rows = await f.s.database.db.select().from(execLog).where(eq(execLog.agentId, 'alpha'));
    const row = rows.find((r) => r.command.startsWith('GITHUB_TOKEN='))!;
    expect(row.command).toBe("GITHUB_TOKEN=*** sudo curl -H 'Authorization: Bearer ***' https://bob:***@example.test");
    const audits = await f.s.database.db.select().from(auditLog).where(eq(auditLog.action, 'agent.exec'));
    const text = JSON.stringify(audits);
    expect(text).toContain('GITHUB_TOKEN=***');
    for (const secret of ['ghp_s3cr3t', 'abc.def', 'pw@']) {
      expect(text).not.toContain(secret);
      expect(JSON.stringify(rows)).not.toContain(secret);
    }
  });
  it('a viewer sees decisions and outcomes with the command hidden; an operator and the agent see it masked', async () => {
    const seen = async (token: string) => (await f.call('agentExecLog', token, { params: { id: 'alpha' } })).json.items[0];
    const v = await seen(f.tokens.viewer);
    expect(v).toMatchObject({ command: null, segment: null, decision: 'deny', outcome: 'denied' });
    expect(v.rule).toBeTruthy();
    for (const token of [operator.token, agentToken]) expect((await seen(token)).command).toContain('GITHUB_TOKEN=***');
  });
  it("replaying an agent's exec log needs policy.commands too", async () => {
    const body = { agentId: 'alpha', proposed: 'yolo' };
    const r = await f.call('replayCommands', f.tokens.viewer, { body });
    expect(r.status).toBe(403);
    expect(r.json.error.message).toContain('policy.commands');
    expect((await f.call('replayCommands', operator.token, { body })).status).toBe(200);
    expect((await f.call('replayCommands', f.tokens.viewer, { body: { commands: ['ls'], proposed: 'yolo' } })).status).toBe(200);
  });
});
