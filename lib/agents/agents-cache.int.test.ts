// The kept effective skills against writes this process never saw (another replica's, made here
// straight in the database): an agent's list, the defaults, an agent deleted and created again under
// the same id — served once the other replica's `agents` notice arrives, or within the probe's
// lifetime when the notice is lost — and an install row of the agent's sandbox config, at the next poll.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentDefaults, agents, sandboxConfigs, sandboxSkillInstalls } from '@/db/schema';
import { CHANGES_CHANNEL } from '@/lib/cluster/invalidation';
import { type AgentsSetup, startAgentsSetup } from '@/test/helpers/agents-setup';
import { waitFor } from '@/test/helpers/services';
import { AGENT_PROBE_TTL_MS } from './probe-cache';

let t: AgentsSetup;
const names = (r: { body: { skills: { name: string }[] } }) => r.body.skills.map((s) => s.name);
/** The notice the other replica's write sends with its commit (raw, so this process hears it only from the database). */
const notice = (id?: string) => t.ts.services.database.db.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${id ? `agents:${id}` : 'agents'})`);
/** The next poll whose status is `status`: the notice arrives shortly after the write. */
const served = (id: string, status: number, etag?: string, limitMs?: number) =>
  waitFor(
    async () => {
      const r = await t.api.skills(id, etag);
      return r.status === status ? r : null;
    },
    `GET /api/v1/agents/${id}/skills to answer ${status}`,
    limitMs,
  );

beforeAll(async () => {
  t = await startAgentsSetup('agents-cache');
  for (const n of ['alpha', 'beta', 'gamma']) t.write(n, `The ${n} skill.`);
  await t.refresh();
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

describe('writes of another replica', () => {
  it('an agent row and the defaults changed in the database give a new version at the next poll', async () => {
    const db = t.ts.services.database.db;
    expect((await t.api.create({ id: 'elsewhere', name: 'Elsewhere', skills: ['alpha', 'beta'] })).status).toBe(201);
    const first = await t.api.skills('elsewhere');
    const etag = first.headers.get('etag')!;
    expect((await t.api.skills('elsewhere', etag)).status).toBe(304);

    await db
      .update(agents)
      .set({ skills: ['gamma'], revision: 2, updatedAt: new Date() })
      .where(eq(agents.id, 'elsewhere'));
    await notice('elsewhere');
    const edited = await served('elsewhere', 200, etag);
    expect(names(edited)).toEqual(['gamma']);
    const etag2 = edited.headers.get('etag')!;

    // Back to inheriting, then the defaults change.
    await db.update(agents).set({ skills: null, revision: 3, updatedAt: new Date() }).where(eq(agents.id, 'elsewhere'));
    await notice('elsewhere');
    const inherits = await served('elsewhere', 200, etag2);
    expect(names(inherits)).toEqual(['alpha', 'beta', 'gamma']);
    await db.insert(agentDefaults).values({ id: 'default', skills: ['beta'], revision: 1, updatedBy: 'elsewhere' });
    await notice();
    const defaults = await served('elsewhere', 200, inherits.headers.get('etag')!);
    expect(names(defaults)).toEqual(['beta']);
    expect((await t.api.skills('elsewhere', defaults.headers.get('etag')!)).status).toBe(304);
    await db.delete(agentDefaults);
    await notice();
  });

  it('a change whose notice was lost is served once the kept probe has lived its lifetime', async () => {
    const db = t.ts.services.database.db;
    expect((await t.api.create({ id: 'unheard', name: 'Unheard', skills: ['alpha'] })).status).toBe(201);
    const first = await t.api.skills('unheard');
    const etag = first.headers.get('etag')!;
    await db
      .update(agents)
      .set({ skills: ['beta'], revision: 2, updatedAt: new Date() })
      .where(eq(agents.id, 'unheard'));
    // Bounded by the probe's lifetime (and a margin for a loaded machine), not by a notice.
    const late = await served('unheard', 200, etag, AGENT_PROBE_TTL_MS + 5000);
    expect(names(late)).toEqual(['beta']);
  });

  it('an agent deleted and created again under the same id and revision is read again', async () => {
    const db = t.ts.services.database.db;
    expect((await t.api.create({ id: 'reborn', name: 'Reborn', skills: ['alpha'] })).status).toBe(201);
    const first = await t.api.skills('reborn');
    expect(names(first)).toEqual(['alpha']);
    await db.delete(agents).where(eq(agents.id, 'reborn'));
    await notice('reborn');
    await served('reborn', 404);
    await db.insert(agents).values({ id: 'reborn', name: 'Reborn', skills: ['beta'], createdBy: 'x', updatedBy: 'x' });
    await notice('reborn');
    const again = await served('reborn', 200, first.headers.get('etag')!);
    expect(names(again)).toEqual(['beta']);
  });

  it("an install row of the agent's sandbox config gives a new version at once", async () => {
    const db = t.ts.services.database.db;
    await db.insert(sandboxConfigs).values({ id: 'cfg-cache', name: 'cache box', backend: 'e2b', config: {}, createdBy: 'x', updatedBy: 'x' });
    expect((await t.api.create({ id: 'boxed', name: 'Boxed', sandboxConfigId: 'cfg-cache' })).status).toBe(201);
    const empty = await t.api.skills('boxed');
    expect(names(empty)).toEqual([]);
    const etag = empty.headers.get('etag')!;
    expect((await t.api.skills('boxed', etag)).status).toBe(304);
    const alpha = (await t.ts.services.skills.snapshot()).skills.find((s) => s.name === 'alpha')!;
    await db.insert(sandboxSkillInstalls).values({
      id: 'inst-cache',
      configId: 'cfg-cache',
      skillKey: alpha.skillKey,
      skillName: 'alpha',
      version: '1.0.0',
      contentHash: alpha.copy.contentHash,
      state: 'ready',
      createdBy: 'x',
    });
    const installed = await t.api.skills('boxed', etag);
    expect(installed.status).toBe(200);
    expect(installed.body.skills).toEqual([expect.objectContaining({ name: 'alpha', location: '/opt/skilldock/skills/alpha/SKILL.md' })]);
    expect((await t.api.skills('boxed', installed.headers.get('etag')!)).status).toBe(304);
    await db.update(sandboxSkillInstalls).set({ state: 'removing', updatedAt: new Date() }).where(eq(sandboxSkillInstalls.id, 'inst-cache'));
    const removing = await t.api.skills('boxed', installed.headers.get('etag')!);
    expect(removing.status).toBe(200);
    expect(names(removing)).toEqual([]);
  });
});
