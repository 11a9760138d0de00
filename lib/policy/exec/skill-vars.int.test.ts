// test-phase: pglite only. What it proves happens in the engine (the exec in a real sandbox); its database
// writes are the env store operations other files run on both engines.
// Variables reach the skill that needs them, on real Docker (the offline busybox image): a skill
// needing FOO_API_KEY gets the value of the highest level set — config < workspace skill < the
// agent's sandbox variables < the agent's skill variables — in a gateway exec that names it, and an
// exec for another skill does not get the skill-scoped ones. Gating counts the same names, per agent,
// and its trace says where each comes from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '@/lib/auth/tokens';
import { skillInstallJob } from '@/lib/installs/jobs/handlers';
import { enqueue } from '@/lib/jobs';
import { setEnv, unsetEnv } from '@/lib/sandbox/env/store';
import { setServices } from '@/lib/services';
import { type AgentsClient, agentsClient } from '@/test/helpers/agents-api';
import { apiUser } from '@/test/helpers/api';
import { describeDocker } from '@/test/helpers/docker';
import { echoSkill, type InstallKit, installActor, startInstallKit } from '@/test/helpers/install-jobs';
import { type PolicyClient, policyClient } from '@/test/helpers/policy-api';
import { auditRows } from '@/test/helpers/skills-api';

const keyed = (name: string, env: string[]) => ({
  ...echoSkill(name),
  'SKILL.md': `---\nname: ${name}\ndescription: Needs ${env.join(', ') || 'nothing'}.\nmetadata: { "openclaw": { "requires": { "bins": ["sh"], "env": ${JSON.stringify(env)} } } }\n---\n\n# ${name}\n`,
});

describeDocker('variables that reach skills', () => {
  let kit: InstallKit;
  let admin: AgentsClient;
  let gateway: PolicyClient;
  let configId = '';
  const db = () => kit.ts.services.database.db;
  const ws = { level: 'workspace_skill' as const, skillKey: 'vars-a' };

  /** What FOO_API_KEY is in an exec of agent alpha naming `skill` (or none). */
  async function foo(skill?: string): Promise<string> {
    const r = await gateway.exec('alpha', { command: 'echo "[$FOO_API_KEY]"', ...(skill ? { skill } : {}) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.outcome).toBe('ran');
    return r.body.stdout.trim();
  }
  const envDetail = async (agent: string, skill: string) =>
    (await admin.explain(agent, skill)).body.traces[0].steps.find((s: { step: string }) => s.step === 'eligible').detail as string;

  beforeAll(async () => {
    kit = await startInstallKit();
    setServices(Promise.resolve(kit.ts.services));
    const a = await apiUser(kit.ts.services, {
      email: 'vars-admin@example.com',
      role: 'admin',
      tokenName: 'vars',
      permissions: ['agents.read', 'agents.write', 'agents.exec', 'policy.read'],
    });
    admin = agentsClient(a.token);
    configId = await kit.newConfig('vars-sbx');
    const skills = [await kit.storeSkill('vars-a', keyed('vars-a', ['FOO_API_KEY'])), await kit.storeSkill('vars-b', keyed('vars-b', []))];
    await kit.ts.services.skills.refresh();
    const begun = [await kit.begin(configId, skills[0]), await kit.begin(configId, skills[1])];
    const job = await kit.waitJob(
      (await enqueue(kit.ts.services.database, installActor, skillInstallJob, { installIds: begun.map((b) => b.id) }, { trusted: true })).id,
    );
    expect(job.state, JSON.stringify(job.failure ?? job.error)).toBe('succeeded');
    for (const id of ['alpha', 'beta']) expect((await admin.create({ id, name: id, sandboxConfigId: configId })).status).toBe(201);
    const scoped = await createToken(db(), a.actor, { name: 'gw', permissions: ['agents.read', 'agents.exec'], expiresInDays: 1, agentIds: ['alpha'] });
    gateway = policyClient(scoped.token);
  }, 300_000);
  afterAll(async () => {
    await kit?.stop();
  });

  it('refuses an exec naming a skill the agent does not have, before anything is judged or logged', async () => {
    const before = (await gateway.execLog('alpha')).body.items.length;
    // vars-a needs FOO_API_KEY, set nowhere yet: not eligible, so not one of alpha's skills.
    expect(await admin.names('alpha')).toEqual(['vars-b']);
    for (const skill of ['vars-a', 'no-such-skill']) {
      const r = await gateway.exec('alpha', { command: 'echo hi', skill });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'validation' });
      expect(r.body.error.message).toContain(`has no skill "${skill}"`);
    }
    expect((await gateway.execLog('alpha')).body.items.length).toBe(before);
  });

  it('gives the exec the highest level set, and skill-scoped levels only to the skill they belong to', async () => {
    const s = kit.ts.services;
    await setEnv(db(), s.secrets, installActor, { level: 'config', configId }, 'FOO_API_KEY', 'from-config');
    expect(await admin.names('alpha')).toEqual(['vars-a', 'vars-b']);
    expect(await envDetail('alpha', 'vars-a')).toContain('eligible');
    expect([await foo('vars-a'), await foo('vars-b'), await foo()]).toEqual(['[from-config]', '[from-config]', '[from-config]']);

    await setEnv(db(), s.secrets, installActor, ws, 'FOO_API_KEY', 'from-workspace-skill');
    expect([await foo('vars-a'), await foo('vars-b'), await foo()]).toEqual(['[from-workspace-skill]', '[from-config]', '[from-config]']);

    const sbx = await admin.setEnv('alpha', { level: 'personal_sandbox', configId, name: 'FOO_API_KEY', value: 'from-agent-sandbox' });
    expect(sbx.status, JSON.stringify(sbx.body)).toBe(200);
    expect(sbx.body).toMatchObject({ level: 'personal_sandbox', name: 'FOO_API_KEY', configId, configured: true });
    expect(JSON.stringify(sbx.body)).not.toContain('from-agent-sandbox');
    expect([await foo('vars-a'), await foo('vars-b'), await foo()]).toEqual(['[from-agent-sandbox]', '[from-agent-sandbox]', '[from-agent-sandbox]']);

    const sk = await admin.setEnv('alpha', { level: 'personal_skill', skillKey: 'vars-a', name: 'FOO_API_KEY', value: 'from-agent-skill' });
    expect(sk.status, JSON.stringify(sk.body)).toBe(200);
    expect([await foo('vars-a'), await foo('vars-b'), await foo()]).toEqual(['[from-agent-skill]', '[from-agent-sandbox]', '[from-agent-sandbox]']);
    expect((await admin.env('alpha')).body.items.map((v: { level: string; name: string }) => `${v.level}:${v.name}`)).toEqual([
      'personal_sandbox:FOO_API_KEY',
      'personal_skill:FOO_API_KEY',
    ]);
    const audit = await auditRows(s, 'sandbox.env.set');
    expect(audit.at(-1)!.target_id).toBe('personal_skill:agent:alpha:vars-a:FOO_API_KEY');
    expect(audit.at(-1)!.after).not.toContain('from-agent-skill');

    // Removing a level lets the one below apply again.
    expect((await admin.unsetEnv('alpha', { level: 'personal_skill', skillKey: 'vars-a', name: 'FOO_API_KEY' })).status).toBe(200);
    expect(await foo('vars-a')).toBe('[from-agent-sandbox]');
    expect((await admin.unsetEnv('alpha', { level: 'personal_sandbox', configId, name: 'FOO_API_KEY' })).status).toBe(200);
    expect(await foo('vars-a')).toBe('[from-workspace-skill]');
    expect((await admin.unsetEnv('alpha', { level: 'personal_sandbox', configId, name: 'FOO_API_KEY' })).status).toBe(404);
    await unsetEnv(db(), installActor, ws, 'FOO_API_KEY');
    await unsetEnv(db(), installActor, { level: 'config', configId }, 'FOO_API_KEY');
    expect([await foo('vars-b'), await foo()]).toEqual(['[]', '[]']);
  });

  describe('gating counts a name only where it is delivered', () => {
    it('the skill workspace level: eligible, traced to the skill variables', async () => {
      await setEnv(db(), kit.ts.services.secrets, installActor, ws, 'FOO_API_KEY', 'w');
      expect(await admin.names('alpha')).toEqual(['vars-a', 'vars-b']);
      const explain = await admin.explain('alpha', 'vars-a');
      const gating = JSON.stringify(explain.body);
      expect(gating).toContain("FOO_API_KEY (the skill's workspace variables, given to execs that name the skill)");
      await unsetEnv(db(), installActor, ws, 'FOO_API_KEY');
      expect(await admin.names('alpha')).toEqual(['vars-b']);
    });

    it("an agent's own variable makes the skill eligible for that agent alone", async () => {
      expect((await admin.setEnv('alpha', { level: 'personal_skill', skillKey: 'vars-a', name: 'FOO_API_KEY', value: 'a' })).status).toBe(200);
      expect(await admin.names('alpha')).toEqual(['vars-a', 'vars-b']);
      expect(await admin.names('beta')).toEqual(['vars-b']);
      expect(JSON.stringify((await admin.explain('alpha', 'vars-a')).body)).toContain(
        "FOO_API_KEY (agent alpha's variables for this skill, given to execs that name the skill)",
      );
      expect(await foo('vars-a')).toBe('[a]');
      // A skill variable the skill does not declare is neither counted nor delivered.
      expect((await admin.setEnv('alpha', { level: 'personal_skill', skillKey: 'vars-b', name: 'FOO_API_KEY', value: 'b' })).status).toBe(200);
      expect(await foo('vars-b')).toBe('[]');
      expect((await admin.unsetEnv('alpha', { level: 'personal_skill', skillKey: 'vars-a', name: 'FOO_API_KEY' })).status).toBe(200);
      expect(await admin.names('alpha')).toEqual(['vars-b']);
    });

    it('refuses variables for an agent or a config that does not exist', async () => {
      expect((await admin.setEnv('ghost', { level: 'personal_skill', skillKey: 'vars-a', name: 'X', value: '1' })).status).toBe(404);
      expect((await admin.setEnv('alpha', { level: 'personal_sandbox', configId: 'no-such-config', name: 'X', value: '1' })).status).toBe(404);
      expect((await admin.setEnv('alpha', { level: 'personal_skill', skillKey: 'vars-a', name: 'LD_PRELOAD', value: '1' })).status).toBe(400);
    });
  });
});
