// The kept effective skills against writes this process never saw (another replica's, made here
// straight in the database): the one probe statement sees every one at the next poll — an agent's
// list, the defaults, an agent deleted and created again under the same id, and an install row of
// the agent's sandbox config.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentDefaults, agents, sandboxConfigs, sandboxSkillInstalls } from '@/db/schema';
import { type AgentsSetup, startAgentsSetup } from '@/test/helpers/agents-setup';

let t: AgentsSetup;
const names = (r: { body: { skills: { name: string }[] } }) => r.body.skills.map((s) => s.name);

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
    const edited = await t.api.skills('elsewhere', etag);
    expect(edited.status).toBe(200);
    expect(names(edited)).toEqual(['gamma']);
    const etag2 = edited.headers.get('etag')!;

    // Back to inheriting, then the defaults change.
    await db.update(agents).set({ skills: null, revision: 3, updatedAt: new Date() }).where(eq(agents.id, 'elsewhere'));
    const inherits = await t.api.skills('elsewhere', etag2);
    expect(names(inherits)).toEqual(['alpha', 'beta', 'gamma']);
    await db.insert(agentDefaults).values({ id: 'default', skills: ['beta'], revision: 1, updatedBy: 'elsewhere' });
    const defaults = await t.api.skills('elsewhere', inherits.headers.get('etag')!);
    expect(defaults.status).toBe(200);
    expect(names(defaults)).toEqual(['beta']);
    expect((await t.api.skills('elsewhere', defaults.headers.get('etag')!)).status).toBe(304);
    await db.delete(agentDefaults);
  });

  it('an agent deleted and created again under the same id and revision is read again', async () => {
    const db = t.ts.services.database.db;
    expect((await t.api.create({ id: 'reborn', name: 'Reborn', skills: ['alpha'] })).status).toBe(201);
    const first = await t.api.skills('reborn');
    expect(names(first)).toEqual(['alpha']);
    await db.delete(agents).where(eq(agents.id, 'reborn'));
    expect((await t.api.skills('reborn')).status).toBe(404);
    await db.insert(agents).values({ id: 'reborn', name: 'Reborn', skills: ['beta'], createdBy: 'x', updatedBy: 'x' });
    const again = await t.api.skills('reborn', first.headers.get('etag')!);
    expect(again.status).toBe(200);
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
