// test-phase: pglite only. What it proves is OpenClaw's own reading of what Skilldock wrote;
// the gateway store it writes through runs on both engines in the doors tests.
// A real OpenClaw (its CLI from the npm package, on Node 24) with a state folder on this host:
// connect, adopt, sync, and every result checked by asking OpenClaw itself.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSON5 from 'json5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUT as entryRoute } from '@/app/api/v1/skills/entry/route';
import { POST as uninstallRoute } from '@/app/api/v1/skills/uninstall/route';
import { setServices } from '@/lib/services';
import { agentsClient } from '@/test/helpers/agents-api';
import { apiUser, jobEnd } from '@/test/helpers/api';
import { type GatewaysClient, gatewaysClient, type Json } from '@/test/helpers/gateways-api';
import { ensureOpenClaw, makeOpenClawState, runOpenClaw } from '@/test/helpers/openclaw';
import { startTestServices, type TestServices, waitFor } from '@/test/helpers/services';
import { skillMd, skillsClient } from '@/test/helpers/skills-api';
import { zipSkill } from '@/test/helpers/skills-archives';

let ts: TestServices;
let oc: Awaited<ReturnType<typeof ensureOpenClaw>>;
let tmp: string;
let stateDir: string;
let home: string;
let gw: GatewaysClient;
let agents: ReturnType<typeof agentsClient>;
let skills: ReturnType<typeof skillsClient>;
let id: string;

const CONFIG = `// The operator's own notes: kept by every write Skilldock makes itself.
{
  agents: {
    ownership: "explicit",
    entries: {
      a1: {}, // inherits the defaults
      a2: { skills: ["local-note"] },
      a3: { skills: [] },
    },
  },
  skills: {
    entries: {
      "local-note": { env: { NOTE_DIR: "/tmp/notes" } },
    },
  },
  channels: { telegram: { enabled: false } },
}
`;

/** What OpenClaw itself says agent `agent` sees: skill name → modelVisible, for the names asked. */
async function visible(agent: string): Promise<Map<string, Json>> {
  const r = await runOpenClaw(oc, ['skills', 'list', '--agent', agent, '--json'], { stateDir, home });
  expect(r.code, r.stderr).toBe(0);
  return new Map((JSON.parse(r.stdout).skills as Json[]).map((s) => [s.name, s]));
}
const config = () => JSON5.parse(fs.readFileSync(path.join(stateDir, 'openclaw.json'), 'utf8'));

async function syncAndWait(): Promise<Json> {
  const r = await gw.sync(id);
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  const job = await jobEnd(ts.services, r.body.jobId, 120_000);
  expect(job.state, job.error ? JSON.stringify(job.error) : '').toBe('succeeded');
  return job.result;
}

beforeAll(async () => {
  oc = await ensureOpenClaw();
  tmp = fs.mkdtempSync(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), 'skilldock-gw-'));
  const roots = path.join(tmp, 'roots');
  home = path.join(tmp, 'home');
  fs.mkdirSync(home, { recursive: true });
  stateDir = path.join(roots, 'state');
  makeOpenClawState(stateDir, CONFIG, { 'local-note': skillMd('local-note', 'Notes written by the operator, not by Skilldock.') });
  ts = await startTestServices({ env: { SKILLDOCK_GATEWAY_ROOTS: roots, SKILLDOCK_GATEWAY_POLL_MS: '60000' } });
  setServices(Promise.resolve(ts.services));
  const { token } = await apiUser(ts.services, {
    email: 'gw-admin@example.com',
    role: 'admin',
    tokenName: 'gw',
    permissions: ['agents.read', 'agents.write', 'skills.read', 'skills.write', 'gateways.read', 'gateways.write', 'jobs.read'],
  });
  gw = gatewaysClient(token);
  agents = agentsClient(token);
  skills = skillsClient(ts.services, token);
  for (const [name, meta] of [
    ['deploy', {}],
    ['needs-env', { openclaw: { requires: { env: ['NEEDS_KEY'] } } }],
    ['retired', {}],
  ] as const) {
    const job = await skills.importArchive(zipSkill(name, { 'SKILL.md': skillMd(name, `The ${name} skill.`, { metadata: meta }) }));
    expect(job.state, JSON.stringify(job.error)).toBe('succeeded');
  }
}, 240_000);

afterAll(async () => {
  await ts?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('an OpenClaw gateway on this host', () => {
  it('refuses a state folder outside the roots, behind a symlink, or without an OpenClaw config; nothing is stored', async () => {
    const outside = fs.mkdtempSync(path.join(tmp, 'outside-'));
    fs.writeFileSync(path.join(outside, 'openclaw.json'), '{}');
    const link = path.join(tmp, 'roots', 'link');
    fs.symlinkSync(outside, link);
    const bare = path.join(tmp, 'roots', 'bare');
    fs.mkdirSync(bare);
    for (const [dir, msg] of [
      [outside, /outside the gateway roots/],
      [link, /symbolic link/],
      [bare, /not an OpenClaw state folder/],
      ['/nonexistent/state', /does not exist/],
    ] as const) {
      const r = await gw.create({ name: `bad ${dir}`, kind: 'openclaw', location: { type: 'local', stateDir: dir } });
      expect(r.status, dir).toBe(400);
      expect(r.body.error.message).toMatch(msg);
    }
    const shell = await gw.create({ name: 'shell', kind: 'openclaw', location: { type: 'local', stateDir, cli: 'openclaw; rm -rf /' } });
    expect(shell.status).toBe(400);
    expect((await gw.list()).body.items).toHaveLength(0);
  });

  it('connects: the test reads the version and validates the config', async () => {
    const r = await gw.create({ name: 'local', kind: 'openclaw', location: { type: 'local', stateDir, cli: oc.cli, home, write: 'file' }, autoSync: false });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    id = r.body.id;
    const t = await gw.test(id);
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    expect(t.body).toMatchObject({ reachable: true, configValid: true, version: oc.version, error: null });
  }, 60_000);

  it('adopts: the preview says what changes, then the agents and the entry come into Skilldock', async () => {
    const pre = await gw.adoptPreview(id);
    expect(pre.status, JSON.stringify(pre.body)).toBe(200);
    expect(pre.body.agents.map((a: Json) => [a.id, a.action, a.gateway])).toEqual([
      ['a1', 'create', null],
      ['a2', 'create', ['local-note']],
      ['a3', 'create', []],
    ]);
    expect(pre.body.entries).toEqual([expect.objectContaining({ key: 'local-note', action: 'set', env: ['NOTE_DIR'] })]);
    expect((await agents.list()).body.items).toHaveLength(0);
    const r = await gw.adopt(id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.gateway.agentIds).toEqual(['a1', 'a2', 'a3']);
    expect((await agents.get('a2')).body.skills).toEqual(['local-note']);
    expect((await agents.get('a1')).body.skills).toBeNull();
  });

  it('syncs the allowlist truth table: defaults absent / list / [] × inherits / own list / []', async () => {
    const a2 = await agents.get('a2');
    expect((await agents.patch('a2', { revision: a2.body.revision, skills: ['deploy'] })).status).toBe(200);
    const cases: [string[] | null, Record<string, string[]>][] = [
      [null, { a1: ['deploy', 'local-note', 'needs-env'], a2: ['deploy'], a3: [] }],
      [['local-note'], { a1: ['local-note'], a2: ['deploy'], a3: [] }],
      [[], { a1: [], a2: ['deploy'], a3: [] }],
    ];
    for (const [defaults, want] of cases) {
      expect((await agents.setDefaults(defaults)).status).toBe(200);
      await syncAndWait();
      expect(config().agents.defaults?.skills ?? null).toEqual(defaults);
      for (const [agent, names] of Object.entries(want)) {
        const seen = await visible(agent);
        for (const n of ['deploy', 'local-note', 'needs-env']) {
          const s = seen.get(n);
          const shown = !!s && !s.blockedByAgentFilter && !s.disabled;
          expect(shown, `${agent} ${n} with defaults ${JSON.stringify(defaults)}`).toBe(names.includes(n));
        }
      }
    }
  }, 300_000);

  it('keeps unknown keys and comments, writes Skilldock folders with markers, and OpenClaw validates the result', async () => {
    const raw = fs.readFileSync(path.join(stateDir, 'openclaw.json'), 'utf8');
    expect(raw).toContain("// The operator's own notes");
    expect(raw).toContain('// inherits the defaults');
    expect(config().channels).toEqual({ telegram: { enabled: false } });
    // Defaults [] leave only a2's deploy: the folders of skills no linked agent may use are pruned.
    expect(JSON.parse(fs.readFileSync(path.join(stateDir, 'skills', 'deploy', '.skilldock.json'), 'utf8'))).toMatchObject({ name: 'deploy' });
    for (const n of ['needs-env', 'retired']) expect(fs.existsSync(path.join(stateDir, 'skills', n)), n).toBe(false);
    expect(fs.existsSync(path.join(stateDir, 'skills', 'local-note', '.skilldock.json'))).toBe(false);
    const v = await runOpenClaw(oc, ['config', 'validate', '--json'], { stateDir, home });
    expect(v.code, v.stdout + v.stderr).toBe(0);
    expect(JSON.parse(v.stdout).valid).toBe(true);
  }, 60_000);

  it('makes an env-gated skill eligible once its variable is set in Skilldock, and a disabled entry disables it', async () => {
    expect((await agents.setDefaults(null)).status).toBe(200);
    await syncAndWait();
    expect((await visible('a1')).get('needs-env')).toMatchObject({ eligible: false, missing: { env: ['NEEDS_KEY'] } });
    const put = await skills.send(entryRoute as never, 'PUT', '/api/v1/skills/entry', { body: { skillKey: 'needs-env', env: { NEEDS_KEY: 'sekret' } } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const off = await skills.send(entryRoute as never, 'PUT', '/api/v1/skills/entry', { body: { skillKey: 'deploy', enabled: false } });
    expect(off.status).toBe(200);
    await syncAndWait();
    const seen = await visible('a1');
    expect(seen.get('needs-env')).toMatchObject({ eligible: true, modelVisible: true });
    expect(seen.get('deploy')).toMatchObject({ disabled: true, modelVisible: false });
  }, 120_000);

  it('removes a skill removed in Skilldock, and leaves a folder it did not write alone', async () => {
    const un = await skills.send(uninstallRoute as never, 'POST', '/api/v1/skills/uninstall', { body: { slug: 'retired' } });
    expect([200, 202], JSON.stringify(un.body)).toContain(un.status);
    if (un.status === 202) await jobEnd(ts.services, un.body.id);
    await waitFor(async () => !(await skills.list()).skills.some((s) => s.name === 'retired'), 'the catalog to drop retired');
    const result = await syncAndWait();
    expect(result.folders).toContainEqual({ op: 'remove', name: 'retired', why: 'no longer in Skilldock' });
    expect(fs.existsSync(path.join(stateDir, 'skills', 'retired'))).toBe(false);
    expect(fs.existsSync(path.join(stateDir, 'skills', 'local-note', 'SKILL.md'))).toBe(true);
    expect((await visible('a1')).has('retired')).toBe(false);
  }, 120_000);

  it("shows a hand edit of the gateway as drift, and a sync puts Skilldock's list back", async () => {
    const file = path.join(stateDir, 'openclaw.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/skills: \["deploy"\]/, 'skills: ["deploy", "local-note"]'));
    expect(config().agents.entries.a2.skills).toEqual(['deploy', 'local-note']);
    const d = await gw.drift(id);
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect(d.body.pending).toContain('agents.entries.a2.skills: ["deploy","local-note"] → ["deploy"]');
    const a2 = d.body.agents.find((a: Json) => a.agentId === 'a2');
    expect(a2.differences).toContainEqual({
      skill: 'local-note',
      ours: { visible: false, why: "not in the agent's own list" },
      theirs: { visible: true, why: expect.stringMatching(/^visible/) },
    });
    await syncAndWait();
    expect(config().agents.entries.a2.skills).toEqual(['deploy']);
    const after = await gw.drift(id);
    expect(after.body.pending).toEqual([]);
    expect(after.body.agents.find((a: Json) => a.agentId === 'a2').inSync).toBe(true);
  }, 120_000);

  it('with OPENCLAW_CONFIG_READONLY on the gateway, produces the patch for the deployment system and writes no config', async () => {
    const row = (await gw.get(id)).body;
    const ro = await gw.patch(id, { revision: row.revision, location: { ...row.location, readOnly: true } });
    expect(ro.status, JSON.stringify(ro.body)).toBe(200);
    const a3 = await agents.get('a3');
    expect((await agents.patch('a3', { revision: a3.body.revision, skills: ['deploy'] })).status).toBe(200);
    const before = fs.readFileSync(path.join(stateDir, 'openclaw.json'), 'utf8');
    const result = await syncAndWait();
    expect(result.readOnly).toBe(true);
    expect(JSON.parse(result.patch)).toMatchObject({ agents: { entries: { a3: { skills: ['deploy'] } } } });
    expect(fs.readFileSync(path.join(stateDir, 'openclaw.json'), 'utf8')).toBe(before);
    const job = await gw.get(id);
    expect(job.body.lastSync.message).toMatch(/read-only gateway/);
  }, 60_000);
});
