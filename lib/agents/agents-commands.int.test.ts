// Through the REST door, over real skills in a real root: a disable-model-invocation skill is out of
// the prompt and in the commands with its dispatch fields, user-invocable: false keeps a skill out
// of the commands, the ETag follows the commands; a Nodmix skill is gated like its OpenClaw twin
// (and not at all when the metadataKeys setting leaves its block out); PulseBot's requires.configs
// files decide by existing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AgentsSetup, startAgentsSetup } from '@/test/helpers/agents-setup';

let t: AgentsSetup;
const ABSENT_ENV = 'SKD_CMD_ABSENT_KEY';

beforeAll(async () => {
  t = await startAgentsSetup('agents-cmd');
  t.write('chat', 'Talk about anything.');
  t.write('deploy', 'Deploy the app.', { extra: 'disable-model-invocation: true\ncommand-dispatch: tool\ncommand-tool: deploy_tool\ncommand-arg-mode: raw' });
  t.write('internal', 'Model only.', { extra: 'user-invocable: false' });
  t.write('claw-twin', 'Needs a key (OpenClaw).', { metadata: { openclaw: { requires: { env: [ABSENT_ENV] } } } });
  t.write('nodmix-twin', 'Needs a key (Nodmix).', { metadata: { nodmix: { requires: { env: [ABSENT_ENV] } } } });
  await t.refresh();
  expect((await t.api.create({ id: 'cmd', name: 'Commands' })).status).toBe(201);
}, 120_000);
afterAll(async () => {
  await t?.stop();
});

describe('user-invocable skills in GET /api/v1/agents/{id}/skills', () => {
  it('a disable-model-invocation skill: absent from the prompt, present in the commands with its dispatch fields', async () => {
    const r = await t.api.skills('cmd');
    expect(r.status).toBe(200);
    expect(r.body.skills.map((s: { name: string }) => s.name)).toEqual(['chat', 'internal']);
    expect(r.body.prompt.included).toEqual(['chat', 'internal']);
    expect(r.body.prompt.text).not.toContain('deploy');
    expect(r.body.commands.map((c: { name: string }) => c.name)).toEqual(['chat', 'deploy']);
    expect(r.body.commands[1]).toEqual({
      name: 'deploy',
      description: 'Deploy the app.',
      location: path.join(t.root, 'deploy', 'SKILL.md'),
      skillDir: path.join(t.root, 'deploy'),
      env: [],
      modelInvocable: false,
      userInvocable: true,
      commandDispatch: 'tool',
      commandTool: 'deploy_tool',
      commandArgMode: 'raw',
      contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(r.body.commands[0]).toMatchObject({ name: 'chat', modelInvocable: true, commandDispatch: null, commandTool: null });
  });

  it('user-invocable: false keeps a skill out of the commands', async () => {
    const r = await t.api.skills('cmd');
    expect(r.body.commands.map((c: { name: string }) => c.name)).not.toContain('internal');
  });

  it("the gateway reads a command's SKILL.md; the explain trace says it is a command", async () => {
    const s = await t.api.skill('cmd', 'deploy');
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({ name: 'deploy', skillDir: path.join(t.root, 'deploy') });
    expect(s.body.skillMd).toContain('command-tool: deploy_tool');
    const e = await t.api.explain('cmd', 'deploy');
    expect(e.body.traces[0]).toMatchObject({ effective: false, failedAt: 'model-invocable' });
    expect(e.body.traces[0].steps.find((x: { step: string }) => x.step === 'model-invocable').detail).toContain('served as the user command /deploy');
  });

  it('the ETag moves when only a command changes', async () => {
    const first = await t.api.skills('cmd');
    const etag = first.headers.get('etag')!;
    expect((await t.api.skills('cmd', etag)).status).toBe(304);
    t.write('deploy', 'Deploy the app.', { extra: 'disable-model-invocation: true\ncommand-dispatch: tool\ncommand-tool: ship_tool' });
    await t.refresh();
    const after = await t.api.skills('cmd', etag);
    expect(after.status).toBe(200);
    expect(after.body.prompt.text).toBe(first.body.prompt.text);
    expect(after.body.commands.find((c: { name: string }) => c.name === 'deploy').commandTool).toBe('ship_tool');
    // Made user-invocable: false too, it leaves the commands (and the answer) altogether.
    t.write('deploy', 'Deploy the app.', { extra: 'disable-model-invocation: true\nuser-invocable: false' });
    await t.refresh();
    const gone = await t.api.skills('cmd', after.headers.get('etag')!);
    expect(gone.status).toBe(200);
    expect(gone.body.commands.map((c: { name: string }) => c.name)).toEqual(['chat']);
    expect((await t.api.skill('cmd', 'deploy')).status).toBe(404);
  });
});

describe("every gateway's metadata through the catalog", () => {
  it('a Nodmix skill is gated exactly like its OpenClaw twin', async () => {
    const claw = await t.skills.skill('claw-twin');
    const nod = await t.skills.skill('nodmix-twin');
    expect(claw).toMatchObject({ status: 'needs-setup', eligible: false });
    expect(nod).toMatchObject({ status: claw!.status, eligible: claw!.eligible, missing: claw!.missing });
    expect(nod!.missing.env).toEqual([ABSENT_ENV]);
  });

  it('the metadataKeys setting decides which blocks are read', async () => {
    const bad = await t.skills.settings({ metadataKeys: ['openclaw', 'openclaw'] });
    expect(bad.status).toBe(400);
    const ok = await t.skills.settings({ metadataKeys: ['openclaw', 'clawdbot'] });
    expect(ok.status).toBe(200);
    expect(ok.body.metadataKeys).toEqual(['openclaw', 'clawdbot']);
    await t.refresh();
    // OpenClaw reads no nodmix block: to it the Nodmix skill has no gates.
    expect(await t.skills.skill('nodmix-twin')).toMatchObject({ status: 'ready', eligible: true });
    expect(await t.skills.skill('claw-twin')).toMatchObject({ status: 'needs-setup' });
    const back = await t.skills.settings({ metadataKeys: ['openclaw', 'nodmix', 'clawdbot', 'clawdis', 'moltbot'] });
    expect(back.status).toBe(200);
    await t.refresh();
    expect(await t.skills.skill('nodmix-twin')).toMatchObject({ status: 'needs-setup' });
  });

  it("PulseBot's requires.configs: missing while the file is absent, ready once it exists", async () => {
    const file = path.join(t.tmp, 'pulse', 'config.yaml');
    t.write('pulse', 'A PulseBot skill.', { metadata: { openclaw: { requires: { configs: [file] } } } });
    await t.refresh();
    const absent = await t.skills.skill('pulse');
    expect(absent).toMatchObject({ status: 'needs-setup', eligible: false });
    expect(absent!.missing).toMatchObject({ config: [], files: [file] });
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'a: 1\n');
    await t.refresh();
    expect(await t.skills.skill('pulse')).toMatchObject({ status: 'ready', eligible: true });
  });
});
