// A full build handed the previous one keeps the results of skills for which nothing changed, and
// gates again every skill whose gating would read something new: a bin found, an env var set, an
// entry edited, an acknowledgement, the app config. Each case is compared with a build from scratch.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CopyCache } from '../catalog';
import { makeTmp } from '../catalog/testutil';
import { createHostTarget } from '../gating';
import type { ScanResult } from '../types';
import { type BuildInput, type BuiltCatalog, buildCatalog } from './build';

let tmp: string;
let root: string;
let bin: string;
let env: Record<string, string | undefined>;
let input: BuildInput;

function skill(name: string, meta: string[] = []) {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  const head = meta.length ? ['metadata:', '  openclaw:', ...meta.map((l) => `    ${l}`)] : [];
  fs.writeFileSync(path.join(dir, 'SKILL.md'), ['---', `name: ${name}`, `description: The ${name} skill.`, ...head, '---', '', 'Body.', ''].join('\n'));
}

beforeEach(() => {
  tmp = makeTmp();
  root = path.join(tmp, 'skills');
  bin = path.join(tmp, 'bin');
  fs.mkdirSync(bin);
  skill('plain');
  skill('needs-bin', ['requires:', '  bins: [sd-reuse-tool]']);
  skill('needs-env', ['requires:', '  env: [SD_REUSE_TOKEN]']);
  skill('needs-config', ['requires:', '  config: [reuse.enabled]']);
  env = { PATH: bin };
  input = {
    roots: [{ kind: 'workspace', path: root, precedence: 0 }],
    discover: { allowSymlinkTargets: [], maxCandidatesPerRoot: 300, maxSkillFileBytes: 256_000, groupDepth: 1 },
    config: {},
    entries: new Map(),
    acks: new Map(),
    target: createHostTarget({ env, pathDirs: [bin] }),
    scans: new Map<string, ScanResult>(),
    cache: new CopyCache({ racyMs: 0 }),
  };
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const byName = (b: BuiltCatalog) => new Map(b.skills.map((s) => [s.name, s]));
const statuses = (b: BuiltCatalog) => Object.fromEntries(b.skills.map((s) => [s.name, s.status]));

/** The same input without anything kept: what the catalog must be. */
async function fromScratch(): Promise<BuiltCatalog> {
  return buildCatalog({ ...input, scans: new Map(), cache: new CopyCache({ racyMs: 0 }), keyOwners: undefined });
}

/** The rebuild equals a build from scratch in everything but object identity. */
async function expectAsFromScratch(next: BuiltCatalog) {
  const scratch = await fromScratch();
  const view = (b: BuiltCatalog) => b.skills.map((s) => ({ name: s.name, status: s.status, gating: s.gating, ack: s.ack, keyOwner: s.keyOwner }));
  expect(view(next)).toEqual(view(scratch));
}

describe('buildCatalog with the previous build', () => {
  it('keeps every skill object when nothing changed', async () => {
    const first = await buildCatalog(input);
    const again = await buildCatalog({ ...input, entries: new Map(), acks: new Map(), config: {} }, first);
    const before = byName(first);
    for (const s of again.skills) expect(s).toBe(before.get(s.name));
  });

  it('gates again the skill whose bin appeared, and only it', async () => {
    const first = await buildCatalog(input);
    expect(statuses(first)['needs-bin']).toBe('needs-setup');
    const tool = path.join(bin, 'sd-reuse-tool');
    fs.writeFileSync(tool, '#!/bin/sh\n');
    fs.chmodSync(tool, 0o755);
    (input.target as ReturnType<typeof createHostTarget>).invalidate();
    const next = await buildCatalog(input, first);
    expect(statuses(next)['needs-bin']).toBe('ready');
    expect(byName(next).get('plain')).toBe(byName(first).get('plain'));
    await expectAsFromScratch(next);
  });

  it('sees an env var set in the target environment', async () => {
    const first = await buildCatalog(input);
    expect(statuses(first)['needs-env']).toBe('needs-setup');
    env.SD_REUSE_TOKEN = 'set';
    const next = await buildCatalog(input, first);
    expect(statuses(next)['needs-env']).toBe('ready');
    await expectAsFromScratch(next);
  });

  it('sees an entry edited and an app config changed', async () => {
    const first = await buildCatalog(input);
    input = { ...input, entries: new Map([['needs-env', { envNames: ['SD_REUSE_TOKEN'], hasApiKey: false, config: {} }]]) };
    const withEntry = await buildCatalog(input, first);
    expect(statuses(withEntry)['needs-env']).toBe('ready');
    await expectAsFromScratch(withEntry);
    input = { ...input, entries: new Map([['plain', { enabled: false, envNames: [], hasApiKey: false, config: {} }]]) };
    const disabled = await buildCatalog(input, withEntry);
    expect(statuses(disabled)).toMatchObject({ plain: 'disabled', 'needs-env': 'needs-setup' });
    await expectAsFromScratch(disabled);
    input = { ...input, config: { reuse: { enabled: true } } };
    const configured = await buildCatalog(input, disabled);
    expect(statuses(configured)['needs-config']).toBe('ready');
    await expectAsFromScratch(configured);
  });

  it('sees an acknowledgement of a skill', async () => {
    const first = await buildCatalog(input);
    const plain = byName(first).get('plain')!;
    input = { ...input, acks: new Map([[plain.copy.contentHash, { reason: 'reviewed', acknowledgedBy: 'admin', acknowledgedAt: new Date(0) }]]) };
    const next = await buildCatalog(input, first);
    expect(byName(next).get('plain')!.ack).toMatchObject({ reason: 'reviewed' });
    await expectAsFromScratch(next);
  });
});
