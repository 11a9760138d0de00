// The exec policy API over the real engine and a real database: profiles (presets read-only, stale
// edits and in-use deletes refused with 409, bad input refused with nothing written), agents bound to
// profiles with overrides, the evaluate route, replay before/after, approvals (approved, rejected,
// expired) and the roles on each route.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { execApprovals, riskProfiles } from '@/db/schema';
import { type Actor, ROLE_PERMISSIONS } from '@/lib/auth';
import { RateLimiter } from '@/lib/core/rate-limit';
import { setServices } from '@/lib/services';
import { type AgentsClient, agentsClient } from '@/test/helpers/agents-api';
import { apiUser } from '@/test/helpers/api';
import { type PolicyClient, policyClient } from '@/test/helpers/policy-api';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { auditRows } from '@/test/helpers/skills-api';
import { requestApproval, waitForDecision } from './approvals/approvals';
import { CORPUS, SPOT_CASES } from './corpus/corpus';
import { PRESET_RULES } from './profiles/presets';
import { policyEngine } from './runtime';

let ts: TestServices;
let admin: PolicyClient;
let viewer: PolicyClient;
let agentsApi: AgentsClient;
let adminActor: Actor;

beforeAll(async () => {
  ts = await startTestServices({ worker: false });
  setServices(Promise.resolve(ts.services));
  const a = await apiUser(ts.services, {
    email: 'policy-admin@example.com',
    role: 'admin',
    tokenName: 'policy',
    permissions: ['policy.read', 'policy.write', 'policy.approve', 'agents.read', 'agents.write'],
  });
  adminActor = a.actor;
  admin = policyClient(a.token);
  agentsApi = agentsClient(a.token);
  const v = await apiUser(ts.services, { email: 'policy-viewer@example.com', role: 'viewer', tokenName: 'view', permissions: ['policy.read', 'agents.read'] });
  viewer = policyClient(v.token);
}, 120_000);
afterAll(async () => {
  await ts?.stop();
});

const profileRows = async () => (await ts.services.database.db.select().from(riskProfiles)).length;

describe('profiles', () => {
  it('lists the three presets, read-only, balanced the default', async () => {
    const r = await admin.profiles();
    expect(r.status).toBe(200);
    expect(r.body.defaultProfile).toBe('balanced');
    expect(r.body.items.filter((p: { builtin: boolean }) => p.builtin).map((p: { name: string }) => p.name)).toEqual(['locked_down', 'balanced', 'yolo']);
    expect((await admin.patch('balanced', { revision: 0, description: 'x' })).status).toBe(409);
    expect((await admin.remove('yolo')).status).toBe(409);
    expect((await admin.create({ name: 'balanced', rules: {} })).status).toBe(409);
  });

  it('creates, reads, edits with the revision, refuses a stale edit', async () => {
    const c = await admin.create({ name: 'strict-ci', description: 'CI only', rules: { allowedCommands: ['ls', 'git'], approvalForMedium: true } });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(c.body).toMatchObject({ name: 'strict-ci', builtin: false, revision: 1, usedBy: [] });
    expect(c.body.rules).toMatchObject({ allowedCommands: ['ls', 'git'], blockHighRisk: true, writeThenRun: 'approval' });
    expect((await admin.create({ name: 'strict-ci', rules: {} })).status).toBe(409);
    const p = await admin.patch('strict-ci', { revision: 1, rules: { allowedCommands: ['ls'] } });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ revision: 2, rules: { allowedCommands: ['ls'] } });
    const stale = await admin.patch('strict-ci', { revision: 1, description: 'lost update' });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('conflict');
    expect((await admin.get('strict-ci')).body.description).toBe('CI only');
    expect((await auditRows(ts.services, 'policy.profile.update')).length).toBe(1);
  });

  it('refuses bad input and writes nothing', async () => {
    const before = await profileRows();
    for (const name of ['../etc', 'a/b', 'Upper', '1abc', 'has space', 'x'.repeat(64), '']) {
      const r = await admin.create({ name, rules: {} });
      expect(r.status, name).toBe(400);
      expect(r.body.error.code).toBe('validation');
    }
    const many = Array.from({ length: 10_000 }, (_, i) => `cmd${i}`);
    expect((await admin.create({ name: 'huge', rules: { allowedCommands: many } })).status).toBe(400);
    expect((await admin.create({ name: 'paths', rules: { forbiddenPaths: ['relative/path'] } })).status).toBe(400);
    expect((await admin.create({ name: 'unknown-field', rules: { sudo: true } })).status).toBe(400);
    expect((await admin.create({ name: 'bad-group', rules: { denyGroups: { not_a_group: 'off' } } })).status).toBe(400);
    expect((await admin.get('../etc')).status).toBe(400);
    expect(await profileRows()).toBe(before);
  });

  it('binds agents, applies their overrides, refuses deleting a profile in use', async () => {
    expect((await agentsApi.create({ id: 'ci-bot', name: 'CI', riskProfile: 'strict-ci' })).status).toBe(201);
    expect((await agentsApi.create({ id: 'relaxed', name: 'Relaxed', policyOverrides: { denyGroups: { package_install: 'off' } } })).status).toBe(201);
    expect((await agentsApi.create({ id: 'ghost', name: 'Ghost', riskProfile: 'no-such-profile' })).status).toBe(400);
    const del = await admin.remove('strict-ci');
    expect(del.status).toBe(409);
    expect(del.body.error.details.agents).toEqual(['ci-bot']);
    expect((await admin.get('strict-ci')).body.usedBy).toEqual(['ci-bot']);
    const relaxed = await admin.agentPolicy('relaxed');
    expect(relaxed.body).toMatchObject({ profile: 'balanced', overrides: { denyGroups: { package_install: 'off' } } });
    expect(relaxed.body.rules.denyGroups.package_install).toBe('off');
    // The same command under the agent's rules and under plain balanced.
    const cmd = 'pip install -r requirements.txt';
    expect((await admin.evaluate({ command: cmd })).body.decision).toBe('approval');
    expect((await admin.evaluate({ command: cmd, agentId: 'relaxed' })).body.decision).not.toBe('approval');
    const ci = (await agentsApi.get('ci-bot')).body;
    expect((await agentsApi.patch('ci-bot', { revision: ci.revision, riskProfile: null })).status).toBe(200);
    expect((await admin.remove('strict-ci')).status).toBe(200);
    expect((await admin.get('strict-ci')).status).toBe(404);
  });

  it('viewers read and test but do not write', async () => {
    expect((await viewer.profiles()).status).toBe(200);
    expect((await viewer.evaluate({ command: 'ls' })).status).toBe(200);
    expect((await viewer.create({ name: 'by-viewer', rules: {} })).status).toBe(403);
    expect((await viewer.putSettings({ approvalTimeoutSeconds: 5 })).status).toBe(403);
  });
});

describe('evaluate and replay', () => {
  it('answers the decision with rule, segment, reason, segments and the tree; no profile is balanced', async () => {
    const r = await admin.evaluate({ command: 'ls -la && sudo rm -rf /', tree: true });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ decision: 'deny', profile: 'balanced' });
    expect(r.body.segment).toContain('sudo');
    expect(r.body.segments.length).toBeGreaterThanOrEqual(2);
    expect(r.body.tree.type).toBe('program');
    const inline = await admin.evaluate({ command: 'ls -la', profile: { allowedCommands: ['git'] } });
    expect(inline.body).toMatchObject({ decision: 'deny', profile: 'inline' });
    expect((await admin.evaluate({ command: 'ls', profile: 'no-such' })).status).toBe(404);
    expect((await admin.evaluate({ command: '' })).status).toBe(400);
  });

  it('decides every corpus command the same through the route as the library does', async () => {
    const engine = await policyEngine();
    expect(CORPUS.length).toBeGreaterThanOrEqual(150);
    // Hundreds of calls in a second: the route's per-user limit is tested on its own; here it is lifted.
    const limiter = ts.services.rateLimiter;
    ts.services.rateLimiter = new RateLimiter();
    onTestFinished(() => {
      ts.services.rateLimiter = limiter;
    });
    const fresh = () => {
      ts.services.rateLimiter = new RateLimiter();
    };
    for (const [i, c] of CORPUS.entries()) {
      if (i % 50 === 0) fresh();
      const r = await viewer.evaluate({ command: c.command });
      expect(r.status, c.command).toBe(200);
      const { profile, ...viaRoute } = r.body;
      expect(profile).toBe('balanced');
      expect(viaRoute, c.command).toEqual(JSON.parse(JSON.stringify(engine.evaluate(c.command, PRESET_RULES.balanced))));
      expect({ decision: viaRoute.decision, rule: viaRoute.rule }, c.command).toEqual({ decision: c.decision, rule: c.rule });
    }
    // The route takes a profile and a cwd: cases that need written files, a home or stdin are the library's.
    for (const [i, c] of SPOT_CASES.filter((s) => !s.writtenFiles && !s.home && !s.stdin).entries()) {
      if (i % 50 === 0) fresh();
      const profile = c.inlineCode ? { ...PRESET_RULES[c.preset], inlineCode: c.inlineCode } : c.preset;
      const r = await viewer.evaluate({ command: c.command, profile, ...(c.cwd ? { cwd: c.cwd } : {}) });
      expect({ decision: r.body.decision, rule: r.body.rule }, `${c.preset}: ${c.command}`).toEqual({ decision: c.decision, rule: c.rule });
    }
  }, 120_000);

  it('a parse error is a deny with the rule unparseable', async () => {
    const r = await admin.evaluate({ command: 'echo "unterminated' });
    expect(r.body).toMatchObject({ decision: 'deny', rule: 'unparseable' });
  });

  it('replays a pasted list under the current and a proposed profile', async () => {
    const commands = ['ls -la', 'git status', 'pip install -r requirements.txt', 'sudo ls', 'cat a.txt | sort | uniq -c'];
    const r = await admin.replay({ commands, current: 'balanced', proposed: { allowedCommands: ['ls', 'git'], denyGroups: { package_install: 'off' } } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const by = Object.fromEntries(r.body.items.map((i: { command: string }) => [i.command, i]));
    expect(by['ls -la']).toMatchObject({ before: { decision: 'allow' }, after: { decision: 'allow' }, changed: false });
    expect(by['cat a.txt | sort | uniq -c']).toMatchObject({ before: { decision: 'allow' }, changed: true });
    expect(by['cat a.txt | sort | uniq -c'].after.decision).not.toBe('allow');
    expect(by['sudo ls'].before.decision).toBe('deny');
    expect(r.body.counts.total).toBe(5);
    expect(r.body.counts.newlyFailing).toBe(
      r.body.items.filter((i: Record<string, { decision: string }>) => i.before.decision === 'allow' && i.after.decision !== 'allow').length,
    );
    expect(r.body.counts.newlyFailing).toBeGreaterThanOrEqual(1);
    const yolo = await admin.replay({ commands, proposed: 'yolo' });
    expect(yolo.body.counts.newlyPassing).toBeGreaterThanOrEqual(1);
    expect((await admin.replay({ proposed: 'yolo' })).status).toBe(400);
  });
});

describe('approvals', () => {
  const db = () => ({ db: ts.services.database.db, decisions: ts.services.approvals });
  const ask = async (command: string, timeoutSeconds: number) => {
    const engine = await policyEngine();
    const evaluation = engine.evaluate(command, (await admin.get('balanced')).body.rules);
    expect(evaluation.decision).toBe('approval');
    return requestApproval(db(), adminActor, { agentId: 'relaxed', command, evaluation, timeoutSeconds });
  };

  it('an admin approves a pending request; a waiter wakes with it; a second decision is refused', async () => {
    const req = await ask('pip install -r requirements.txt', 120);
    const waiting = waitForDecision(db(), req.id);
    expect((await viewer.approve(req.id)).status).toBe(403);
    const list = await admin.approvals('?state=pending');
    expect(list.body.items.map((i: { id: string }) => i.id)).toContain(req.id);
    const ok = await admin.approve(req.id, { note: 'fine' });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ state: 'approved', note: 'fine', decidedBy: 'policy-admin@example.com (token "policy")' });
    expect((await waiting).state).toBe('approved');
    expect((await admin.reject(req.id)).status).toBe(409);
  });

  it('a rejected request stays rejected', async () => {
    const req = await ask('npm install ./left-pad.tgz', 120);
    const waiting = waitForDecision(db(), req.id);
    expect((await admin.reject(req.id)).body.state).toBe('rejected');
    expect((await waiting).state).toBe('rejected');
    expect((await admin.approve(req.id)).status).toBe(409);
  });

  it('a request nobody decides expires at its deadline and can no longer be approved', async () => {
    const req = await ask('pip install -r dev-requirements.txt', 1);
    const final = await waitForDecision(db(), req.id, { pollMs: 50 });
    expect(final.state).toBe('expired');
    const r = await admin.approve(req.id);
    expect(r.status).toBe(409);
    expect(r.body.error.details.state).toBe('expired');
    const [row] = await ts.services.database.db.select().from(execApprovals).where(eq(execApprovals.id, req.id));
    expect(row.decidedBy).toBe('system');
    expect((await auditRows(ts.services, 'policy.approval.expire')).map((a) => a.target_id)).toContain(req.id);
  });

  it('settings: the approval timeout and mode, validated', async () => {
    expect((await admin.settings()).body).toMatchObject({ approvalTimeoutSeconds: 120, approvalMode: 'wait', outputCapBytes: 1048576 });
    expect((await admin.putSettings({ approvalMode: 'later' })).status).toBe(400);
    expect((await admin.putSettings({ approvalTimeoutSeconds: 30 })).body.approvalTimeoutSeconds).toBe(30);
    expect(ROLE_PERMISSIONS.operator.has('policy.approve')).toBe(false);
  });
});
