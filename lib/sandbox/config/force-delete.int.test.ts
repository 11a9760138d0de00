// A config whose engine no longer answers: a plain delete is refused (the inventory cannot be
// listed), an admin's forced delete removes it and names what may be left on the engine, in the
// answer and the audit record; a known use still refuses it, forced or not.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sandboxConfigs } from '@/db/schema';
import { ops } from '@/lib/api/operations';
import { route } from '@/lib/http/route';
import { type ConfigFixture, docker, startConfigFixture } from '@/test/helpers/sandbox-configs';

let f: ConfigFixture;
const down = new Set<string>();
const bound = new Set<string>();

beforeAll(async () => {
  f = await startConfigFixture();
  f.s.sandboxUsage.addInstanceLister(async (configId) => {
    if (down.has(configId)) throw new Error('connect ECONNREFUSED 127.0.0.1:2376');
    return [];
  });
  f.s.sandboxUsage.addAgentLister(async (configId) => (bound.has(configId) ? [{ id: 'a1', name: 'Agent one' }] : []) as never);
});
afterAll(async () => {
  await f?.stop();
});

async function del(token: string, id: string, force?: boolean) {
  const url = `http://localhost/api/v1/sandbox-configs/${id}${force ? '?force=true' : ''}`;
  const res = await route(ops.deleteSandboxConfig)(new Request(url, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }), {
    params: Promise.resolve({ id }),
  });
  return { status: res.status, json: await res.json() };
}
const exists = async (id: string) => (await f.s.database.db.select().from(sandboxConfigs).where(eq(sandboxConfigs.id, id))).length === 1;
const newConfig = async (host = 'unix:///run/gone/docker.sock') =>
  (await f.call('createSandboxConfig', f.tokens.admin, { body: docker({ host }) })).json.id as string;

describe('force-deleting a config whose engine does not answer', () => {
  it('a plain delete is refused with 409 and a hint; the config stays', async () => {
    const id = await newConfig();
    down.add(id);
    const r = await del(f.tokens.admin, id);
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('inventory_unverifiable');
    expect(r.json.error.hint).toContain('force');
    expect(await exists(id)).toBe(true);
  });

  it('a viewer cannot force it', async () => {
    const id = await newConfig();
    down.add(id);
    expect((await del(f.tokens.viewer, id, true)).status).toBe(403);
    expect(await exists(id)).toBe(true);
  });

  it('an admin forces it: deleted, with a warning naming the engine and what may be left, also in the audit record', async () => {
    const id = await newConfig();
    down.add(id);
    const r = await del(f.tokens.admin, id, true);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.deleted).toBe(true);
    expect(r.json.warning).toContain('unix:///run/gone/docker.sock could not be reached');
    expect(r.json.warning).toContain(`skilldock.config=${id}`);
    expect(await exists(id)).toBe(false);
    const [audit] = await f.s.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'sandbox.config.delete'), eq(auditLog.targetId, id)));
    expect(audit.after).toMatchObject({ forced: true, endpoint: 'unix:///run/gone/docker.sock', mayRemain: r.json.warning });
  });

  it('a known use still refuses it, forced or not', async () => {
    const id = await newConfig();
    down.add(id);
    bound.add(id);
    const r = await del(f.tokens.admin, id, true);
    expect(r.status).toBe(409);
    expect(await exists(id)).toBe(true);
    const alive = await newConfig('unix:///var/run/docker.sock');
    f.live.set(alive, [{ id: `docker~${'a'.repeat(12)}`, state: 'running' } as never]);
    const used = await del(f.tokens.admin, alive, true);
    expect([used.status, used.json.error.code]).toEqual([409, 'config_in_use']);
    expect(await exists(alive)).toBe(true);
  });

  it('on a reachable, unused engine force changes nothing: a plain delete without warning', async () => {
    const id = await newConfig('unix:///var/run/docker.sock');
    const r = await del(f.tokens.admin, id, true);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ deleted: true });
  });
});
