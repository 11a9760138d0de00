// test-phase: both engines. Its subject is every write operation, whose store runs on either engine.
// One operation, two doors: for every write operation, the REST route and the server action reach
// the same implementation, refuse the same roles and write the same audit record.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gt } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '@/db/schema';
import { type Permission, ROLE_PERMISSIONS, type Role, systemActor } from '@/lib/auth';
import { createUser } from '@/lib/auth/users';
import { action, createActionClient } from '@/lib/http/action';
import { defineOperation, type Operation } from '@/lib/http/operation';
import { route } from '@/lib/http/route';
import { type Services, setServices } from '@/lib/services';
import { apiUser } from '@/test/helpers/api';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { sessionCookieFor } from '@/test/helpers/session';
import { api } from '../contracts';
import { type OpName, ops } from '.';

type Input = { params?: Record<string, string>; body?: unknown };
interface Case {
  /** A fresh input for each door (writes that create something need their own names). */
  input: (door: 'route' | 'action', s: Services) => Promise<Input> | Input;
  /** The status both doors answer with for the owner. */
  status: number;
  /** Runs between the two doors, e.g. to end a single-flight job the first door started. */
  between?: (routeJson: unknown) => Promise<void>;
}

const owner = { ...systemActor, permissions: ROLE_PERMISSIONS.owner };
let ts: TestServices;
let s: Services;
const cookies = {} as Record<Role, string>;
const users = {} as Record<Role, string>;
let n = 0;
const unique = (p: string) => `${p}-${Date.now().toString(36)}-${++n}`;
const newUser = async (role: Role = 'viewer') =>
  (await createUser(s.database.db, owner, { email: `${unique('u')}@example.test`, name: 'Someone', role, password: 'a long enough password' })).id;
const queuedJob = async () =>
  (await ops.startJob.run({
    services: s,
    actor: { ...owner, kind: 'user', userId: users.owner, label: 'owner' },
    meta: { ip: null, userAgent: null },
    body: { kind: 'diagnostics', params: {} },
    query: undefined,
    params: undefined,
  } as never)) as { id: string };

const ABSENT_SKILL = '0123456789abcdef';
const sandboxConfig = async (host = '') =>
  (
    (await ops.createSandboxConfig.run({
      services: s,
      actor: { ...owner, kind: 'user', userId: users.owner, label: 'owner' },
      meta: { ip: null, userAgent: null },
      body: { name: unique('sbx'), backend: 'docker', description: '', config: { image: 'busybox:1.36', host } },
    } as never)) as { id: string }
  ).id;

const agent = async () =>
  (
    (await ops.createAgent.run({
      services: s,
      actor: { ...owner, kind: 'user', userId: users.owner, label: 'owner' },
      meta: { ip: null, userAgent: null },
      body: { id: unique('agent'), name: 'Agent' },
    } as never)) as { id: string }
  ).id;
const riskProfile = async () =>
  (
    (await ops.createProfile.run({
      services: s,
      actor: { ...owner, kind: 'user', userId: users.owner, label: 'owner' },
      meta: { ip: null, userAgent: null },
      body: { name: unique('prof'), rules: {} },
    } as never)) as { name: string }
  ).name;
// Gateways: each door gets its own OpenClaw state folder (inside the gateway roots) and gateway; its
// own defaults list, so each door's adopt changes the defaults whatever other cases left there.
const gatewayRoots = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-doors-gw-'));
const stateFolder = () => {
  const dir = path.join(gatewayRoots, unique('state'));
  fs.mkdirSync(dir);
  fs.writeFileSync(
    path.join(dir, 'openclaw.json'),
    `{ agents: { defaults: { skills: ["${unique('gws')}"] }, entries: { "${unique('gwa')}": { skills: [] } } } }\n`,
  );
  return dir;
};
const localGateway = () => ({ type: 'local', stateDir: stateFolder(), cli: '/nonexistent/openclaw', write: 'file' });
const gateway = async () =>
  (
    (await ops.createGateway.run({
      services: s,
      actor: { ...owner, kind: 'user', userId: users.owner, label: 'owner' },
      meta: { ip: null, userAgent: null },
      body: { name: unique('gw'), kind: 'openclaw', location: localGateway(), autoSync: false },
    } as never)) as { id: string }
  ).id;
const defaultsRevision = async () => (await ops.getAgentDefaults.run({ services: s } as never)) as { revision: number };

/** Every write operation the console performs, with an input each door can run. */
const CASES: Partial<Record<OpName, Case>> = {
  createUser: {
    status: 201,
    input: () => ({ body: { email: `${unique('new')}@example.test`, name: 'New person', role: 'viewer', password: 'a long enough password' } }),
  },
  updateUser: { status: 200, input: async () => ({ params: { id: await newUser() }, body: { name: 'Renamed' } }) },
  resetPassword: { status: 204, input: async () => ({ params: { id: await newUser() }, body: { password: 'another long password' } }) },
  // A wrong current password: a success would end the owner session the other cases use.
  changeOwnPassword: { status: 400, input: () => ({ body: { currentPassword: 'not the password', newPassword: 'a brand new password' } }) },
  createToken: { status: 201, input: () => ({ body: { name: unique('tok'), permissions: ['instance.read'], expiresInDays: 1 } }) },
  revokeToken: {
    status: 200,
    input: async (_d, sv) => {
      const t = await ops.createToken.run({
        services: sv,
        actor: { ...owner, kind: 'user', userId: users.owner, label: 'owner' },
        meta: { ip: null, userAgent: null },
        body: { name: unique('rev'), permissions: ['instance.read'], expiresInDays: 1 },
      } as never);
      return { params: { id: (t as { record: { id: string } }).record.id } };
    },
  },
  startJob: { status: 202, input: () => ({ body: { kind: 'diagnostics', params: {} } }) },
  cancelJob: { status: 202, input: async () => ({ params: { id: (await queuedJob()).id } }) },
  retryJob: { status: 409, input: async () => ({ params: { id: (await queuedJob()).id } }) },
  installPackage: { status: 202, input: () => ({ body: { spec: 'npm:is-number@7.0.0' } }) },
  uninstallPackage: { status: 202, input: () => ({ body: { spec: 'npm:is-number' } }) },
  updatePackage: { status: 202, input: () => ({ body: { spec: 'npm:is-number' } }) },
  refreshUpdates: {
    status: 202,
    input: () => ({}),
    between: async (json) =>
      void (await ops.cancelJob.run({
        services: s,
        actor: { ...owner, kind: 'user', userId: users.owner, label: 'owner' },
        params: { id: (json as { job: { id: string } }).job.id },
      } as never)),
  },
  applyAllUpdates: { status: 409, input: () => ({ body: { packages: [] } }) },
  pinPackage: { status: 200, input: (d) => ({ body: { spec: `npm:pinned-${d}`, pinned: true, reason: 'held for the test' } }) },
  checkDeps: { status: 200, input: () => ({ body: { skillMd: '---\nname: t\ndescription: d\n---\nbody\n', files: [] } }) },
  githubRollback: { status: 202, input: () => ({ body: { name: 'rg', version: '14.0.0' } }) },
  githubChannel: { status: 404, input: () => ({ body: { name: 'not-installed', channel: 'prerelease' } }) },
  githubRepair: { status: 202, input: () => ({}) },
  updateGithubSettings: { status: 200, input: (d) => ({ body: { allowedOwners: [d === 'route' ? 'route-owner' : 'action-owner'] } }) },
  updateRuntimeSettings: { status: 200, input: (d) => ({ body: { updateTtlMinutes: d === 'route' ? 61 : 62 } }) },
  updateSkillsSettings: { status: 200, input: (d) => ({ body: { uploadMaxMb: d === 'route' ? 11 : 12 } }) },
  updateSkillEntry: { status: 200, input: (d) => ({ body: { skillKey: `entry-${d}`, enabled: false, env: { API_TOKEN: 'secret' } } }) },
  acknowledgeSkill: { status: 404, input: () => ({ body: { id: ABSENT_SKILL, reason: 'checked by hand' } }) },
  importSkill: { status: 202, input: () => ({ body: { source: { kind: 'upload', uploadId: 'u'.repeat(20) } } }) },
  rollbackSkill: { status: 404, input: () => ({ body: { slug: 'not-managed', version: 'v1' } }) },
  uninstallSkill: { status: 404, input: () => ({ body: { slug: 'not-managed' } }) },
  skillDepsInstall: { status: 404, input: () => ({ body: { id: ABSENT_SKILL } }) },
  installDeps: { status: 409, input: () => ({ body: { skillMd: '---\nname: t\ndescription: d\n---\nbody\n', files: [] } }) },
  refreshSkills: { status: 200, input: () => ({}) },
  // With slugs named, each door queues its own check (the single flight holds only for a check of all).
  checkSkillUpdates: { status: 202, input: () => ({ body: { slugs: ['not-imported'] } }) },
  applySkillUpdates: { status: 202, input: () => ({ body: { slugs: ['not-imported'] } }) },
  setSkillUpdatePolicy: { status: 200, input: (d) => ({ body: { kind: 'url', policy: d === 'route' ? 'off' : 'notify' } }) },
  createSandboxConfig: { status: 201, input: () => ({ body: { name: unique('sbx'), backend: 'docker', config: { image: 'busybox:1.36' } } }) },
  updateSandboxConfig: { status: 200, input: async () => ({ params: { id: await sandboxConfig() }, body: { description: 'changed' } }) },
  // An engine that cannot be asked what runs on it: both doors refuse the delete the same way.
  deleteSandboxConfig: { status: 409, input: async () => ({ params: { id: await sandboxConfig('unix:///nonexistent/docker.sock') } }) },
  cloneSandboxConfig: { status: 201, input: async () => ({ params: { id: await sandboxConfig() }, body: { name: unique('clone') } }) },
  setConfigEnv: { status: 200, input: async () => ({ params: { id: await sandboxConfig() }, body: { name: 'REGION', value: 'eu' } }) },
  unsetConfigEnv: { status: 404, input: async () => ({ params: { id: await sandboxConfig() }, body: { name: 'NOT_SET' } }) },
  checkSandboxConfig: { status: 202, input: async () => ({ params: { id: await sandboxConfig() } }) },
  // Creates nothing: the probes answer (here a failing endpoint) without a write or an audit record.
  testSandboxConnection: {
    status: 200,
    input: () => ({ body: { backend: 'docker', config: { image: 'busybox:1.36', host: 'unix:///nonexistent/docker.sock' } } }),
  },
  // A config stays disabled until its full check passes; no engine is contacted for these.
  startSandbox: { status: 409, input: async () => ({ body: { configId: await sandboxConfig() } }) },
  removeSandbox: { status: 404, input: () => ({ params: { id: 'absentconfig~abc123' } }) },
  recycleInstance: { status: 404, input: () => ({ params: { id: 'absentconfig~abc123' } }) },
  execSandbox: { status: 404, input: () => ({ params: { id: 'absentconfig~abc123' }, body: { argv: ['true'] } }) },
  // Validation and the tester write nothing (no audit on either door); a policy change is audited.
  validateNetworkPolicy: { status: 200, input: () => ({ body: { backend: 'docker', policy: { denyEgressByDefault: true, allowOut: ['10.1.2.3/8'] } } }) },
  setConfigNetwork: { status: 200, input: async () => ({ params: { id: await sandboxConfig() }, body: { policy: { denyOut: ['10.0.0.0/8'] } } }) },
  // On a draft policy: judged, never saved, so neither door writes an audit record.
  testConfigNetwork: {
    status: 200,
    input: async () => ({
      params: { id: await sandboxConfig() },
      body: { destination: 'http://10.1.2.3/', policy: { denyEgressByDefault: true, allowOut: ['10.0.0.0/8'] } },
    }),
  },
  setSkillEnv: { status: 200, input: (d) => ({ body: { skillKey: `skill-${d}`, name: 'API_TOKEN', value: 'secret' } }) },
  unsetSkillEnv: { status: 404, input: (d) => ({ body: { skillKey: `absent-${d}`, name: 'API_TOKEN' } }) },
  setMyEnv: { status: 200, input: (d) => ({ body: { level: 'personal_skill', skillKey: `mine-${d}`, name: 'API_TOKEN', value: 'secret' } }) },
  unsetMyEnv: { status: 404, input: (d) => ({ body: { level: 'personal_skill', skillKey: `absent-${d}`, name: 'API_TOKEN' } }) },
  setAgentEnv: {
    status: 404,
    input: (d) => ({ params: { id: `absent-${d}` }, body: { level: 'personal_skill', skillKey: 'any', name: 'API_TOKEN', value: 'secret' } }),
  },
  unsetAgentEnv: { status: 404, input: (d) => ({ params: { id: `absent-${d}` }, body: { level: 'personal_skill', skillKey: 'any', name: 'API_TOKEN' } }) },
  openTerminal: { status: 404, input: () => ({ params: { id: 'absentconfig~abc123' }, body: {} }) },
  closeTerminalSession: { status: 404, input: () => ({ params: { id: '00000000-0000-4000-8000-000000000000' } }) },
  updateTerminalSettings: { status: 200, input: (d) => ({ body: { maxPerUser: d === 'route' ? 4 : 5 } }) },
  deleteTerminalTranscript: { status: 404, input: () => ({ params: { id: '00000000-0000-4000-8000-000000000000' } }) },
  // Skill installs: refusals that write nothing, and a rebuild job that stays queued (no worker here).
  installConfigSkill: { status: 404, input: async () => ({ params: { id: await sandboxConfig() }, body: { skillKey: 'absent-skill' } }) },
  bulkInstallConfigSkills: { status: 404, input: async () => ({ params: { id: await sandboxConfig() }, body: { skillKeys: ['absent-skill'] } }) },
  installSkillIntoConfigs: { status: 404, input: async () => ({ params: { skillKey: 'absent-skill' }, body: { configIds: [await sandboxConfig()] } }) },
  patchConfigSkill: { status: 404, input: async () => ({ params: { id: await sandboxConfig(), skillKey: 'absent-skill' }, body: { enabled: false } }) },
  removeConfigSkill: { status: 404, input: async () => ({ params: { id: await sandboxConfig(), skillKey: 'absent-skill' } }) },
  retryConfigSkill: { status: 404, input: async () => ({ params: { id: await sandboxConfig(), skillKey: 'absent-skill' }, body: {} }) },
  stopConfigSkill: { status: 404, input: async () => ({ params: { id: await sandboxConfig(), skillKey: 'absent-skill' } }) },
  updateConfigSkill: { status: 404, input: async () => ({ params: { id: await sandboxConfig(), skillKey: 'absent-skill' }, body: {} }) },
  rebuildConfigImage: { status: 202, input: async () => ({ params: { id: await sandboxConfig() }, body: {} }) },
  // Agents: each door edits its own agent from the revision it read; the what-if writes nothing.
  createAgent: { status: 201, input: () => ({ body: { id: unique('agent'), name: 'Agent', skills: ['github'] } }) },
  updateAgent: { status: 200, input: async () => ({ params: { id: await agent() }, body: { revision: 1, skills: null } }) },
  deleteAgent: { status: 200, input: async () => ({ params: { id: await agent() } }) },
  createGateway: { status: 201, input: () => ({ body: { name: unique('gw'), kind: 'openclaw', location: localGateway() } }) },
  updateGateway: { status: 200, input: async () => ({ params: { id: await gateway() }, body: { revision: 1, autoSync: true } }) },
  deleteGateway: { status: 200, input: async () => ({ params: { id: await gateway() } }) },
  // No CLI at that path: the test answers 200 with the reason it could not reach the gateway.
  testGateway: { status: 200, input: async () => ({ params: { id: await gateway() } }) },
  adoptGateway: { status: 200, input: async () => ({ params: { id: await gateway() }, body: {} }) },
  syncGateway: { status: 202, input: async () => ({ params: { id: await gateway() } }) },
  // A folder client nobody ran: both doors answer 404 alike.
  forgetFolderClient: { status: 404, input: (d) => ({ params: { agentId: `absent-${d}`, clientId: '0123456789abcdef' } }) },
  putAgentDefaults: { status: 200, input: async (d) => ({ body: { revision: (await defaultsRevision()).revision, skills: [`only-${d}`] } }) },
  previewAllowlists: { status: 200, input: async () => ({ body: { changes: [{ agentId: await agent(), revision: 1, skills: [] }] } }) },
  saveAllowlists: { status: 200, input: async () => ({ body: { changes: [{ agentId: await agent(), revision: 1, skills: ['github'] }] } }) },
  // Exec policy: profiles of each door's own, the tester and replay (they write nothing), approvals
  // of an absent request, and an exec of an agent without a sandbox (refused before anything runs).
  createProfile: { status: 201, input: () => ({ body: { name: unique('prof'), rules: { approvalForMedium: true } } }) },
  updateProfile: { status: 200, input: async () => ({ params: { name: await riskProfile() }, body: { revision: 1, description: 'changed' } }) },
  deleteProfile: { status: 200, input: async () => ({ params: { name: await riskProfile() } }) },
  evaluateCommand: { status: 200, input: () => ({ body: { command: 'ls -la | sort' } }) },
  replayCommands: { status: 200, input: () => ({ body: { commands: ['ls', 'sudo ls'], proposed: 'yolo' } }) },
  updatePolicySettings: { status: 200, input: (d) => ({ body: { approvalTimeoutSeconds: d === 'route' ? 100 : 110 } }) },
  approveExec: { status: 404, input: () => ({ params: { id: '00000000-0000-4000-8000-000000000000' }, body: {} }) },
  rejectExec: { status: 404, input: () => ({ params: { id: '00000000-0000-4000-8000-000000000000' }, body: {} }) },
  // A person's session never execs as an agent (only the agent's scoped token does): 403 at both doors.
  agentExec: { status: 403, input: async () => ({ params: { id: await agent() }, body: { command: 'ls' } }) },
};

const writes = (Object.entries(ops) as [OpName, Operation][]).filter(([, op]) => op.contract.method !== 'GET' && !op.restOnly && op.contract.permission);

// One client for every action, as in the app (the cookie source is the request's), so an action
// cannot pick up another one's permission or state.
let caller = '';
const client = createActionClient({ request: async () => ({ cookie: caller, ip: '203.0.113.9', userAgent: 'doors-test' }), services: async () => s });
const built = new Map<Operation, ReturnType<typeof action>>();
function actionFor(op: Operation, cookie: string) {
  if (!built.has(op)) built.set(op, action(op, client));
  const fn = built.get(op)!;
  return (input: never) => {
    caller = cookie;
    return fn(input);
  };
}

async function viaRoute(op: Operation, cookie: string, input: Input) {
  const c = op.contract;
  const path = c.path.replace(/\{(\w+)\}/g, (_, k: string) => input.params?.[k] ?? '');
  const hasBody = input.body !== undefined;
  const req = new Request(`http://localhost${path}`, {
    method: c.method,
    headers: { cookie, 'x-skilldock-client-ip': '203.0.113.9', 'user-agent': 'doors-test', ...(hasBody ? { 'content-type': 'application/json' } : {}) },
    body: hasBody ? JSON.stringify(input.body) : undefined,
  });
  const res = await route(op)(req, { params: Promise.resolve(input.params ?? {}) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

async function viaAction(op: Operation, cookie: string, input: Input) {
  const r = await actionFor(op, cookie)(input as never);
  return r.serverError
    ? { status: r.serverError.status, code: r.serverError.code, json: null }
    : { status: op.contract.status ?? 200, code: null, json: r.data ?? null };
}

const lastAuditId = async () => (await s.database.db.select({ id: auditLog.id }).from(auditLog)).reduce((m, r) => Math.max(m, r.id), 0);
const keysOf = (v: unknown) => (v && typeof v === 'object' ? Object.keys(v).sort() : v === null || v === undefined ? null : typeof v);
async function auditSince(id: number) {
  const rows = await s.database.db.select().from(auditLog).where(gt(auditLog.id, id));
  return rows
    .sort((a, b) => a.id - b.id)
    .map((r) => ({
      action: r.action,
      targetType: r.targetType,
      before: keysOf(r.before),
      after: keysOf(r.after),
      actor: r.actorUserId,
      ip: r.ip,
      userAgent: r.userAgent,
    }));
}

/** The JSON's shape: keys, recursively, so two answers about different rows compare equal. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, shape((v as Record<string, unknown>)[k])]),
    );
  return v === null ? null : typeof v;
}

beforeAll(async () => {
  ts = await startTestServices({ worker: false, env: { SKILLDOCK_GATEWAY_ROOTS: gatewayRoots } });
  s = ts.services;
  setServices(Promise.resolve(s));
  for (const role of ['owner', 'admin', 'operator', 'viewer'] as Role[]) {
    users[role] = await newUser(role);
    cookies[role] = await sessionCookieFor(s.authSecret, users[role]);
  }
});

afterAll(async () => {
  await ts?.stop();
  fs.rmSync(gatewayRoots, { recursive: true, force: true });
});

describe('every write operation through both doors', () => {
  it('has a case here, so a new write cannot skip this table', () => {
    expect(writes.map(([name]) => name).filter((name) => !CASES[name])).toEqual([]);
  });

  for (const [name, op] of writes) {
    const c = CASES[name];
    if (!c) continue;
    it(`${name}: same answer, same audit record`, async () => {
      const routeInput = await c.input('route', s);
      const beforeRoute = await lastAuditId();
      const r = await viaRoute(op, cookies.owner, routeInput);
      const routeAudit = await auditSince(beforeRoute);
      await c.between?.(r.json);
      const actionInput = await c.input('action', s);
      const beforeAction = await lastAuditId();
      const a = await viaAction(op, cookies.owner, actionInput);
      const actionAudit = await auditSince(beforeAction);

      expect(r.status, JSON.stringify(r.json)).toBe(c.status);
      expect(a.status, a.code ?? '').toBe(c.status);
      if (r.status < 300) expect(shape(a.json)).toEqual(shape(r.json));
      else expect(a.code).toBe(r.json.error.code);
      expect(actionAudit).toEqual(routeAudit);
      for (const row of routeAudit) expect(row).toMatchObject({ actor: users.owner, ip: '203.0.113.9', userAgent: 'doors-test' });
    });

    it(`${name}: refused alike to a role without "${op.contract.permission}"`, async () => {
      const perm = op.contract.permission as Permission;
      const lacking = (['viewer', 'operator', 'admin'] as Role[]).filter((role) => !ROLE_PERMISSIONS[role].has(perm));
      for (const role of lacking) {
        const before = await lastAuditId();
        const input = await c.input('route', s);
        const r = await viaRoute(op, cookies[role], input);
        const a = await viaAction(op, cookies[role], input);
        expect(r.status, `${role} on the route`).toBe(403);
        expect(r.json.error.code).toBe('forbidden');
        expect({ status: a.status, code: a.code }, `${role} through the action`).toEqual({ status: 403, code: 'forbidden' });
        expect((await auditSince(before)).filter((x) => x.actor === users[role])).toEqual([]);
      }
    });
  }

  it('refuses a token without the permission on the route (actions take no tokens)', async () => {
    const { token } = await apiUser(s, { email: `${unique('tok')}@example.test`, role: 'admin', tokenName: 'narrow', permissions: ['instance.read'] });
    const res = await route(ops.createUser)(
      new Request('http://localhost/api/v1/users', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      }),
    );
    expect(res.status).toBe(403);
    const a = await action(
      ops.createUser,
      createActionClient({ request: async () => ({ cookie: null, ip: null, userAgent: null }), services: async () => s }),
    )({ body: {} as never });
    expect(a.serverError?.code).toBe('unauthenticated');
  });
});

describe('errors and answers', () => {
  it('a validation error carries the same field issues through both doors', async () => {
    const input = { body: { email: 'not an email', name: '', role: 'viewer', password: 'short' } };
    const r = await viaRoute(ops.createUser, cookies.owner, input);
    const a = await actionFor(ops.createUser, cookies.owner)(input as never);
    expect(r.status).toBe(400);
    expect(a.serverError?.code).toBe('validation');
    expect(a.serverError?.issues).toEqual(r.json.error.issues);
    expect(a.serverError?.issues?.map((i) => i.path)).toEqual(expect.arrayContaining(['email', 'password']));
  });

  it('a server-only rule (the package spec grammar per action) comes back as a field issue', async () => {
    const a = await actionFor(ops.uninstallPackage, cookies.owner)({ body: { spec: 'npm:is-number@7.0.0' } } as never);
    expect(a.serverError).toMatchObject({ code: 'validation', status: 400 });
    expect(a.serverError?.issues?.[0]?.path).toBe('spec');
  });

  it('first-run setup, which needs no session, is refused alike through both doors once a user exists', async () => {
    const input = { body: { email: 'late@example.test', name: 'Late', password: 'a long enough password' } };
    const r = await viaRoute(ops.setup as Operation, '', input);
    const a = await actionFor(ops.setup as Operation, '')(input as never);
    expect(r.status).toBe(409);
    expect(a.serverError).toMatchObject({ code: r.json.error.code, status: 409 });
  });

  it('an answer that does not match its contract is a 500 on the route and an internal error from the action', async () => {
    const broken = defineOperation(api.me, async () => ({ kind: 'user', email: 42 }));
    const r = await viaRoute(broken as Operation, cookies.viewer, {});
    expect(r.status).toBe(500);
    expect(r.json.error.code).toBe('internal');
    const a = await actionFor(broken as Operation, cookies.viewer)({} as never);
    expect(a.serverError).toMatchObject({ code: 'internal', status: 500 });
  });

  it('dates reach the action as the same ISO strings the route sends', async () => {
    const input = { body: { email: `${unique('iso')}@example.test`, name: 'Dates', role: 'viewer', password: 'a long enough password' } };
    const a = await actionFor(ops.createUser, cookies.owner)(input as never);
    expect(typeof (a.data as unknown as { createdAt: unknown }).createdAt).toBe('string');
  });
});
