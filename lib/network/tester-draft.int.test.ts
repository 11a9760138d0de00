// The network tester on a draft policy, through both doors (REST route with a viewer's token, server
// action with a viewer's session): the draft decides instead of the saved rules, it is validated as a
// save would be (same 400 and field paths), and nothing is saved, audited or applied.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sandboxConfigs } from '@/db/schema';
import { ops } from '@/lib/api/operations';
import { ROLE_PERMISSIONS } from '@/lib/auth';
import { action, createActionClient } from '@/lib/http/action';
import type { NetworkControl } from '@/lib/sandbox/network/control';
import { apiUser } from '@/test/helpers/api';
import { type ConfigFixture, docker, e2b, startConfigFixture } from '@/test/helpers/sandbox-configs';
import { sessionCookieFor } from '@/test/helpers/session';
import type { NetworkPolicy } from './policy/types';

let f: ConfigFixture;
let viewerCookie = '';
/** What reached the host firewall: every policy put in force, by config. */
const applied: { configId: string; policy: NetworkPolicy }[] = [];

beforeAll(async () => {
  f = await startConfigFixture();
  const viewer = await apiUser(f.s, { email: 'draft-viewer@sbx.test', role: 'viewer', tokenName: 'dv', permissions: [...ROLE_PERMISSIONS.viewer] });
  viewerCookie = await sessionCookieFor(f.s.authSecret, viewer.actor.userId ?? '');
  // The firewall as the save reaches it, recorded; the real one (when this host enforces) still runs.
  const deps = f.s.sandboxes as { network?: { control: NetworkControl | null } };
  const real = deps.network?.control ?? null;
  const recorded: NetworkControl = {
    table: real?.table ?? 'skilldock_test',
    proxyPort: real?.proxyPort ?? 1,
    dnsPort: real?.dnsPort ?? 1,
    attach: (...a) => (real ? real.attach(...a) : Promise.reject(new Error('no enforcement on this host'))),
    update: async (configId, policy) => {
      applied.push({ configId, policy });
      return real ? real.update(configId, policy) : false;
    },
    detach: (...a) => (real ? real.detach(...a) : Promise.resolve()),
    describe: (...a) => (real ? real.describe(...a) : Promise.resolve(null)),
  };
  deps.network = { ...(deps.network ?? {}), control: recorded } as never;
});
afterAll(async () => {
  await f?.stop();
});

type Answer = { status: number; json: Record<string, any> };
const actionClient = () =>
  createActionClient({ request: async () => ({ cookie: viewerCookie, ip: null, userAgent: 'draft-test' }), services: async () => f.s });

/** The same test through the REST route and the server action, both as a viewer. */
async function bothDoors(id: string, body: { destination: string; policy?: unknown }): Promise<{ route: Answer; action: Answer }> {
  const route = await f.call('testConfigNetwork', f.tokens.viewer, { params: { id }, body });
  const r = await action(ops.testConfigNetwork, actionClient())({ params: { id }, body: body as never });
  const act = r.serverError ? { status: r.serverError.status, json: { error: r.serverError } } : { status: 200, json: r.data as Record<string, any> };
  return { route, action: act };
}

async function stateOf(id: string) {
  const [row] = await f.s.database.db.select().from(sandboxConfigs).where(eq(sandboxConfigs.id, id));
  const audit = await f.s.database.db.select().from(auditLog).where(eq(auditLog.targetId, id));
  return {
    policy: row.networkPolicy,
    sealed: row.networkSecretsSealed,
    updatedAt: row.updatedAt.toISOString(),
    audit: audit.length,
    applied: applied.filter((a) => a.configId === id).length,
  };
}

describe('testing a draft policy', () => {
  it('answers with the draft where it differs from the saved rules, and saves, audits and applies nothing', async () => {
    const saved = { denyEgressByDefault: true, allowOut: ['pypi.org'] };
    const { json: c } = await f.call('createSandboxConfig', f.tokens.owner, { body: { ...docker(), network: saved } });
    const destination = 'https://api.example.com/v1';
    const before = await stateOf(c.id);

    const onSaved = await bothDoors(c.id, { destination });
    for (const a of [onSaved.route, onSaved.action]) {
      expect(a.status).toBe(200);
      expect(a.json).toMatchObject({ allowed: false, basis: 'saved', kind: 'default-deny' });
    }

    const draft = { denyEgressByDefault: true, allowOut: ['pypi.org', 'API.example.com.'] };
    const onDraft = await bothDoors(c.id, { destination, policy: draft });
    expect(onDraft.route.status).toBe(200);
    expect(onDraft.route.json).toMatchObject({
      allowed: true,
      basis: 'draft',
      kind: 'allow-domain',
      entry: 'api.example.com',
      destination: { host: 'api.example.com', port: 443 },
    });
    expect(onDraft.action).toEqual(onDraft.route);

    // Nothing of the draft stayed: the stored policy, the audit log and the firewall are as they were.
    expect(await stateOf(c.id)).toEqual(before);
    const again = await bothDoors(c.id, { destination });
    expect(again.route.json).toMatchObject({ allowed: false, basis: 'saved' });
    expect(again.action.json).toMatchObject({ allowed: false, basis: 'saved' });

    // The same rules saved do reach the firewall and the saved-rules test: what the draft test did not do.
    const put = await f.call('setConfigNetwork', f.tokens.admin, { params: { id: c.id }, body: { policy: draft } });
    expect(put.status).toBe(200);
    expect(applied.filter((a) => a.configId === c.id).map((a) => a.policy.allowOut)).toEqual([['pypi.org', 'api.example.com']]);
    expect((await bothDoors(c.id, { destination })).route.json).toMatchObject({ allowed: true, basis: 'saved', entry: 'api.example.com' });
  });

  it('refuses an invalid draft with the 400 and field paths a save gives, at both doors, writing nothing', async () => {
    const { json: c } = await f.call('createSandboxConfig', f.tokens.owner, { body: { ...docker(), network: { denyOut: ['10.0.0.0/8'] } } });
    const before = await stateOf(c.id);
    const cases: { policy: unknown; path: string }[] = [
      { policy: { allowOut: ['api.example.com'] }, path: 'denyEgressByDefault' },
      { policy: { denyEgressByDefault: true, allowOut: ['pypi.org', 'x.com:443'] }, path: 'allowOut.1' },
      { policy: { denyOut: ['169.254.0.0/16', 'example.com'] }, path: 'denyOut.1' },
      { policy: { allowOut: 'pypi.org' }, path: 'policy.allowOut' },
      { policy: { allowOut: Array.from({ length: 257 }, (_, i) => `10.0.${i >> 8}.${i & 255}`) }, path: 'policy.allowOut' },
      { policy: { denyOut: [], extra: true }, path: 'policy' },
    ];
    for (const { policy, path } of cases) {
      const t = await bothDoors(c.id, { destination: 'pypi.org', policy });
      const save = await f.call('setConfigNetwork', f.tokens.admin, { params: { id: c.id }, body: { policy } });
      expect(t.route.status, JSON.stringify(policy)).toBe(400);
      expect(t.route.json.error.code).toBe('validation');
      expect(t.route.json.error.issues[0].path, JSON.stringify(t.route.json.error.issues)).toBe(path);
      expect(t.route.json.error.issues).toEqual(save.json.error.issues);
      expect(save.status).toBe(400);
      expect(t.action.status).toBe(400);
      expect(t.action.json.error).toMatchObject({ code: 'validation', message: t.route.json.error.message, issues: t.route.json.error.issues });
    }
    expect(await stateOf(c.id)).toEqual(before);
  });

  it('takes "***" for a stored header secret as a save does, and names a mask with nothing stored', async () => {
    const rule = { host: 'api.example.com', headers: { Authorization: 'Bearer sk-draft-secret-1' } };
    const { json: c } = await f.call('createSandboxConfig', f.tokens.owner, {
      body: { ...e2b(), network: { denyEgressByDefault: true, allowOut: ['api.example.com'], e2bHostRules: [rule] } },
    });
    const before = await stateOf(c.id);
    const kept = await bothDoors(c.id, {
      destination: 'https://files.example.org/',
      policy: {
        denyEgressByDefault: true,
        allowOut: ['api.example.com', 'files.example.org'],
        e2bHostRules: [{ host: 'api.example.com', headers: { Authorization: '***' } }],
      },
    });
    expect(kept.route.json).toMatchObject({ allowed: true, basis: 'draft', entry: 'files.example.org', enforcedBy: 'e2b' });
    expect(kept.action).toEqual(kept.route);
    expect(JSON.stringify(kept)).not.toContain('sk-draft-secret-1');

    const unmatched = await bothDoors(c.id, {
      destination: 'https://files.example.org/',
      policy: {
        denyEgressByDefault: true,
        allowOut: ['api.example.com', 'files.example.org'],
        e2bHostRules: [{ host: 'files.example.org', headers: { Authorization: '***' } }],
      },
    });
    expect(unmatched.route.status).toBe(400);
    expect(unmatched.route.json.error.issues[0].path).toBe('e2bHostRules.0.headers.Authorization');
    expect(unmatched.action.json.error.issues).toEqual(unmatched.route.json.error.issues);
    expect(await stateOf(c.id)).toEqual(before);
  });
});
