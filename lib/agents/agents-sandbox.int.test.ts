// An agent bound to a Docker sandbox config (the offline busybox image): its skills are the ones
// installed and ready in that config, located under /opt/skilldock/skills, and gated inside the
// image. The gateway's version moves when an install becomes ready and when a config env value
// flips gating there; until then If-None-Match keeps answering 304.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { skillInstallJob } from '@/lib/installs/jobs/handlers';
import type * as store from '@/lib/installs/records/store';
import { enqueue } from '@/lib/jobs';
import { setEnv } from '@/lib/sandbox/env/store';
import { setServices } from '@/lib/services';
import { type AgentsClient, agentsClient } from '@/test/helpers/agents-api';
import { apiUser } from '@/test/helpers/api';
import { describeDocker } from '@/test/helpers/docker';
import { echoSkill, type InstallKit, installActor, startInstallKit } from '@/test/helpers/install-jobs';

const keyedSkill = (name: string) => ({
  ...echoSkill(name),
  'SKILL.md': `---\nname: ${name}\ndescription: Needs a key in the sandbox.\nmetadata: { "openclaw": { "requires": { "bins": ["sh"], "env": ["SBX_AGENT_KEY"] } } }\n---\n\n# ${name}\n`,
});

describeDocker('an agent on a sandbox config', () => {
  let kit: InstallKit;
  let api: AgentsClient;
  let configId = '';
  let echo: store.CatalogSkill;
  let keyed: store.CatalogSkill;

  beforeAll(async () => {
    kit = await startInstallKit();
    setServices(Promise.resolve(kit.ts.services));
    const { token } = await apiUser(kit.ts.services, {
      email: 'sbx-agents@example.com',
      role: 'admin',
      tokenName: 'sbx',
      permissions: ['agents.read', 'agents.write'],
    });
    api = agentsClient(token);
    configId = await kit.newConfig('agents-sbx');
    echo = await kit.storeSkill('sbx-echo', echoSkill('sbx-echo'));
    keyed = await kit.storeSkill('sbx-keyed', keyedSkill('sbx-keyed'));
    await kit.ts.services.skills.refresh();
    expect((await api.create({ id: 'boxed', name: 'Boxed', sandboxConfigId: configId })).status).toBe(201);
    expect((await api.create({ id: 'on-host', name: 'On host' })).status).toBe(201);
  }, 240_000);
  afterAll(async () => {
    await kit?.stop();
  });

  it('serves nothing that is not installed in its config, and says so', async () => {
    expect(await api.names('boxed')).toEqual([]);
    expect(await api.names('on-host')).toEqual(['sbx-echo']);
    const e = await api.explain('boxed', 'sbx-echo');
    expect(e.body.target).toEqual({ kind: 'sandbox', configId, label: 'agents-sbx' });
    expect(e.body.traces[0]).toMatchObject({ failedAt: 'installed', effective: false });
    expect(e.body.traces[0].steps.find((s: { step: string }) => s.step === 'installed').detail).toBe('not installed in sandbox agents-sbx');
  });

  it('a new version once the installs are ready; a config env value flips gating in the image', async () => {
    const before = await api.skills('boxed');
    const etag = before.headers.get('etag')!;
    const begun = [await kit.begin(configId, echo), await kit.begin(configId, keyed)];
    // Installing is not ready: nothing is served yet, and the version holds.
    expect((await api.skills('boxed', etag)).status).toBe(304);
    const queued = await enqueue(kit.ts.services.database, installActor, skillInstallJob, { installIds: begun.map((b) => b.id) }, { trusted: true });
    const job = await kit.waitJob(queued.id);
    expect(job.state, JSON.stringify(job.failure ?? job.error)).toBe('succeeded');

    const ready = await api.skills('boxed', etag);
    expect(ready.status).toBe(200);
    expect(ready.body.skills).toEqual([
      {
        name: 'sbx-echo',
        description: 'A test skill for the install jobs.',
        location: '/opt/skilldock/skills/sbx-echo/SKILL.md',
        skillDir: '/opt/skilldock/skills/sbx-echo',
        env: [],
        contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    expect(ready.body.prompt.text).toContain('<location>/opt/skilldock/skills/sbx-echo/SKILL.md</location>');
    const keyedTrace = (await api.explain('boxed', 'sbx-keyed')).body.traces[0];
    expect(keyedTrace.failedAt).toBe('eligible');
    expect(keyedTrace.steps.find((s: { step: string }) => s.step === 'eligible').detail).toContain('SBX_AGENT_KEY');
    const etag2 = ready.headers.get('etag')!;
    expect((await api.skills('boxed', etag2)).status).toBe(304);

    await setEnv(kit.ts.services.database.db, kit.ts.services.secrets, installActor, { level: 'config', configId }, 'SBX_AGENT_KEY', 'a-sandbox-value');
    const flipped = await api.skills('boxed', etag2);
    expect(flipped.status).toBe(200);
    expect(flipped.body.skills.map((s: { name: string }) => s.name)).toEqual(['sbx-echo', 'sbx-keyed']);
    expect(JSON.stringify(flipped.body)).not.toContain('a-sandbox-value');
    expect((await api.skills('boxed', flipped.headers.get('etag')!)).status).toBe(304);
  }, 300_000);

  it('a newer catalog version does not reach the sandbox agent before it is installed there', async () => {
    const before = await api.skills('boxed');
    await kit.storeSkill('sbx-echo', { ...echoSkill('sbx-echo'), 'SKILL.md': echoSkill('sbx-echo')['SKILL.md'].replace('A test skill', 'A newer skill') });
    await kit.ts.services.skills.refresh();
    expect((await api.skills('boxed', before.headers.get('etag')!)).status).toBe(304);
    const read = await api.skill('boxed', 'sbx-echo');
    expect(read.status).toBe(200);
    expect(read.body.skillMd).toContain('description: A test skill for the install jobs.');
    expect(read.body.location).toBe('/opt/skilldock/skills/sbx-echo/SKILL.md');
    const host = await api.skills('on-host');
    expect(host.body.skills[0].description).toBe('A newer skill for the install jobs.');
  });

  it('the config counts the agent as a user of it', async () => {
    const usage = await kit.ts.services.sandboxUsage.configInUse(configId);
    expect(usage.agents).toEqual([{ id: 'boxed', name: 'Boxed' }]);
  });
});
