// The exec log across agents (GET /api/v1/exec-log) and how a command that needed approval reads:
// each row carries the state its request reached, so one that ran after an approval reads approved.
// Rows and requests are written as the exec writes them, into a real database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as allExecLogRoute } from '@/app/api/v1/exec-log/route';
import { execApprovals, execLog } from '@/db/schema';
import { setServices } from '@/lib/services';
import { apiUser } from '@/test/helpers/api';
import { type PolicyClient, policyClient } from '@/test/helpers/policy-api';
import { startTestServices, type TestServices } from '@/test/helpers/services';

let ts: TestServices;
let operator: PolicyClient;
let viewer: PolicyClient;

const t = (min: number) => new Date(Date.UTC(2026, 11, 7, 5, min));
const approval = (id: string, agentId: string, state: 'pending' | 'approved' | 'rejected' | 'expired') => ({
  id,
  agentId,
  command: 'pip install -r requirements.txt',
  rule: 'deny_group:package_install',
  state,
  requestedAt: t(0),
  requestedBy: `agent:${agentId}`,
  expiresAt: t(10),
  decidedAt: state === 'pending' ? null : t(2),
  decidedBy: state === 'pending' ? null : state === 'expired' ? 'system' : 'admin@example.com',
});
const row = (id: string, agentId: string, min: number, o: { decision: 'allow' | 'deny' | 'approval'; outcome: string; approvalId?: string }) => ({
  id,
  agentId,
  profile: 'balanced',
  command: o.decision === 'allow' ? 'git status' : 'pip install -r requirements.txt',
  decision: o.decision,
  rule: o.decision === 'allow' ? 'allowed' : 'deny_group:package_install',
  outcome: o.outcome as 'ran',
  approvalId: o.approvalId ?? null,
  at: t(min),
  by: `agent:${agentId}`,
});

beforeAll(async () => {
  ts = await startTestServices({ worker: false });
  setServices(Promise.resolve(ts.services));
  const o = await apiUser(ts.services, {
    email: 'log-operator@example.com',
    role: 'operator',
    tokenName: 'op',
    permissions: ['agents.read', 'policy.read', 'policy.commands'],
  });
  operator = policyClient(o.token);
  const v = await apiUser(ts.services, { email: 'log-viewer@example.com', role: 'viewer', tokenName: 'view', permissions: ['agents.read', 'policy.read'] });
  viewer = policyClient(v.token);
  const db = ts.services.database.db;
  await db
    .insert(execApprovals)
    .values([approval('apr_ok', 'alpha', 'approved'), approval('apr_late', 'beta', 'expired'), approval('apr_wait', 'beta', 'pending')]);
  await db.insert(execLog).values([
    // 202 mode: the first call is logged pending; the approved retry runs.
    row('x1', 'alpha', 1, { decision: 'approval', outcome: 'pending', approvalId: 'apr_ok' }),
    row('x2', 'alpha', 3, { decision: 'approval', outcome: 'ran', approvalId: 'apr_ok' }),
    row('x3', 'beta', 4, { decision: 'deny', outcome: 'denied' }),
    row('x4', 'beta', 5, { decision: 'approval', outcome: 'pending', approvalId: 'apr_late' }),
    row('x5', 'beta', 6, { decision: 'approval', outcome: 'pending', approvalId: 'apr_wait' }),
    row('x6', 'alpha', 7, { decision: 'allow', outcome: 'ran' }),
  ]);
}, 120_000);

afterAll(async () => {
  await ts?.stop();
});

const all = (c: PolicyClient, q = '') => c.send(allExecLogRoute, 'GET', `/api/v1/exec-log${q}`);

describe('the exec log across agents', () => {
  it("answers every agent's rows newest first, each with how its approval ended", async () => {
    const r = await all(operator);
    expect(r.status).toBe(200);
    expect(r.body.items.map((i: { id: string; agentId: string; approvalState: string | null }) => [i.id, i.agentId, i.approvalState])).toEqual([
      ['x6', 'alpha', null],
      ['x5', 'beta', 'pending'],
      ['x4', 'beta', 'expired'],
      ['x3', 'beta', null],
      ['x2', 'alpha', 'approved'],
      ['x1', 'alpha', 'approved'],
    ]);
    expect(r.body.items[0].command).toBe('git status');
  });

  it('narrows to one agent and a decision, like the agent route, which carries the approval state too', async () => {
    const r = await all(operator, '?agentId=beta&decision=approval');
    expect(r.body.items.map((i: { id: string }) => i.id)).toEqual(['x5', 'x4']);
    const own = await operator.execLog('alpha');
    expect(own.body.items.map((i: { id: string; approvalState: string | null }) => [i.id, i.approvalState])).toEqual([
      ['x6', null],
      ['x2', 'approved'],
      ['x1', 'approved'],
    ]);
  });

  it('hides the commands from a role without policy.commands', async () => {
    const r = await all(viewer);
    expect(r.status).toBe(200);
    expect(r.body.items).toHaveLength(6);
    expect(r.body.items.every((i: { command: string | null; segment: string | null }) => i.command === null && i.segment === null)).toBe(true);
  });

  it('refuses a bad agent id with a 400 that names the field', async () => {
    const r = await all(operator, '?agentId=..%2Fetc');
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body.error)).toContain('agentId');
  });
});
