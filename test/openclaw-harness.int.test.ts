// test-phase: pglite only. What it proves is OpenClaw's own reading of what Skilldock wrote;
// the gateway store it writes through runs on both engines in the doors tests.
// Checks the OpenClaw harness: the cached install runs on Node 24, the bin folder's `openclaw`
// resolves through PATH, and a state folder built by makeOpenClawState is what the CLI reads
// (an agent's allowlist decides which managed skill its model sees).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureOpenClaw,
  makeOpenClawState,
  OPENCLAW_NODE_VERSION,
  OPENCLAW_VERSION,
  type OpenClaw,
  openClawEnv,
  runOpenClaw,
  skillMd,
} from '@/test/helpers/openclaw';

interface ListedSkill {
  name: string;
  source: string;
  modelVisible: boolean;
  blockedByAgentFilter: boolean;
}

describe('OpenClaw harness', () => {
  let oc: OpenClaw;
  let root: string;
  let stateDir: string;
  let home: string;

  beforeAll(async () => {
    oc = await ensureOpenClaw();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-oc-harness-'));
    stateDir = path.join(root, 'state');
    home = path.join(root, 'home');
    fs.mkdirSync(home);
    makeOpenClawState(
      stateDir,
      `{
        // JSON5: comments and unquoted keys are fine
        agents: {
          ownership: "explicit",
          entries: {
            a1: { workspace: ${JSON.stringify(path.join(root, 'ws-a1'))}, skills: ["harness-allowed"] },
          },
        },
      }`,
      { 'harness-allowed': skillMd('harness-allowed'), 'harness-other': skillMd('harness-other') },
    );
  });

  afterAll(() => {
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('is installed once into the cache with Node 24 and the bin folder links', async () => {
    expect(oc.version).toBe(OPENCLAW_VERSION);
    expect(fs.realpathSync(path.join(oc.binDir, 'node'))).toBe(fs.realpathSync(oc.node));
    expect(fs.realpathSync(oc.cli)).toBe(fs.realpathSync(oc.entry));
    expect(fs.existsSync(path.join(oc.docsDir, 'gateway', 'protocol', 'handshake.md'))).toBe(true);
    expect(path.relative(process.cwd(), oc.binDir).startsWith('..')).toBe(true);
    // A second call (as another test file would make) answers the same install.
    expect(await ensureOpenClaw()).toEqual(oc);
  });

  it('runs the CLI on Node 24, directly and by name through PATH', async () => {
    const r = await runOpenClaw(oc, ['--version'], { stateDir, home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(OPENCLAW_VERSION);
    const env = openClawEnv(oc, { stateDir, home });
    const byName = spawnSync('openclaw', ['--version'], { env, encoding: 'utf8', timeout: 30_000 });
    expect(byName.status, byName.stderr).toBe(0);
    expect(byName.stdout).toContain(OPENCLAW_VERSION);
    const node = spawnSync('node', ['--version'], { env, encoding: 'utf8', timeout: 10_000 });
    expect(node.stdout.trim()).toBe(`v${OPENCLAW_NODE_VERSION}`);
  });

  it("lists the agent's allowlisted managed skill as model-visible and filters the other", async () => {
    const r = await runOpenClaw(oc, ['skills', 'list', '--agent', 'a1', '--json'], { stateDir, home });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { managedSkillsDir: string; skills: ListedSkill[] };
    expect(fs.realpathSync(out.managedSkillsDir)).toBe(fs.realpathSync(path.join(stateDir, 'skills')));
    const allowed = out.skills.find((s) => s.name === 'harness-allowed');
    const other = out.skills.find((s) => s.name === 'harness-other');
    expect(allowed).toMatchObject({ modelVisible: true, blockedByAgentFilter: false });
    expect(other).toMatchObject({ modelVisible: false, blockedByAgentFilter: true });
  });
});
