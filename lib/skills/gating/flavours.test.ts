import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSkillMd } from '../manifest';
import type { GatingTarget, SkillManifest } from '../types';
import { collectBins, collectFiles, evaluateGating } from './gating';
import { createHostTarget, resolveRequiredFile } from './host-target';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sd-flavours-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const skill = (metadata: string) => parseSkillMd(`---\nname: lab\ndescription: d\nmetadata: ${metadata}\n---\nbody\n`, { dirName: 'lab' }).manifest;

async function gate(m: SkillManifest, target: GatingTarget, config: Record<string, unknown> = {}) {
  const files = target.exists ? await target.exists(collectFiles([m])) : undefined;
  return evaluateGating({
    manifest: m,
    source: 'managed',
    config,
    found: await target.which(collectBins([m])),
    files,
    targetEnv: target.env,
    platform: 'linux',
  });
}

/** A host whose PATH holds `bins` (empty executables) and whose home is `home`. */
function host(bins: string[], env: Record<string, string> = {}, home = tmp) {
  const dir = fs.mkdtempSync(path.join(tmp, 'bin-'));
  for (const b of bins) fs.writeFileSync(path.join(dir, b), '#!/bin/sh\n', { mode: 0o755 });
  return createHostTarget({ pathDirs: [dir], env: { PATH: dir, ...env }, home });
}

describe('a Nodmix skill is gated exactly like its OpenClaw twin', () => {
  const block =
    '{"requires": {"bins": ["uvx-test"], "anyBins": ["jqx-test", "yqx-test"], "env": ["LAB_API_KEY"], "config": ["browser.enabled", "tools.web"]}, "primaryEnv": "LAB_API_KEY"}';
  const claw = skill(`{"openclaw": ${block}}`);
  const nod = skill(`{"nodmix": ${block}}`);
  const cases: [string, GatingTarget, Record<string, unknown>][] = [
    ['nothing present', host([]), {}],
    ['only the bins', host(['uvx-test', 'yqx-test']), {}],
    ['everything', host(['uvx-test', 'jqx-test'], { LAB_API_KEY: 'k' }), { tools: { web: true } }],
    ['a config false', host(['uvx-test', 'jqx-test'], { LAB_API_KEY: 'k' }), { tools: { web: true }, browser: { enabled: false } }],
  ];
  it.each(cases)('%s', async (_label, target, config) => {
    const a = await gate(claw, target, config);
    const b = await gate(nod, target, config);
    expect(b).toEqual(a);
    expect(nod.requires.bins).toEqual(['uvx-test']);
  });

  it('the twins differ in verdict across the cases (the comparison is not vacuous)', async () => {
    const verdicts = await Promise.all(cases.map(([, t, c]) => gate(nod, t, c).then((r) => r.eligible)));
    expect(verdicts).toEqual([false, false, true, false]);
  });

  it('a Nodmix skill read where only the OpenClaw blocks are read has no gates (as OpenClaw itself sees it)', async () => {
    const m = parseSkillMd(`---\nname: lab\ndescription: d\nmetadata: {"nodmix": ${block}}\n---\n`, { metadataKeys: ['openclaw', 'clawdbot'] }).manifest;
    expect((await gate(m, host([]))).eligible).toBe(true);
  });
});

describe("PulseBot's requires.configs: files that must exist", () => {
  const m = skill('{"openclaw": {"requires": {"configs": ["~/.myapp/config.yaml", "/etc/hostname-skilldock-test"]}}}');

  it('absent: missing and not eligible, named in the trace and the reasons', async () => {
    const home = fs.mkdtempSync(path.join(tmp, 'home-'));
    const r = await gate(m, host([], {}, home));
    expect(r.eligible).toBe(false);
    expect(r.missing.files).toEqual(['~/.myapp/config.yaml', '/etc/hostname-skilldock-test']);
    expect(r.missing.config).toEqual([]);
    expect(r.trace.find((t) => t.step === 'files')).toMatchObject({ pass: false });
    expect(r.reasons).toContain('missing config file ~/.myapp/config.yaml');
  });

  it('present: eligible', async () => {
    const home = fs.mkdtempSync(path.join(tmp, 'home-'));
    fs.mkdirSync(path.join(home, '.myapp'));
    fs.writeFileSync(path.join(home, '.myapp', 'config.yaml'), 'a: 1\n');
    const abs = path.join(tmp, 'abs.conf');
    fs.writeFileSync(abs, '');
    const withAbs = skill(`{"openclaw": {"requires": {"configs": ["~/.myapp/config.yaml", "${abs}"]}}}`);
    const r = await gate(withAbs, host([], {}, home));
    expect(r.missing.files).toEqual([]);
    expect(r.trace.find((t) => t.step === 'files')).toMatchObject({ pass: true });
    expect(r.eligible).toBe(true);
    // One of the two gone: not eligible again.
    fs.rmSync(abs);
    expect((await gate(withAbs, host([], {}, home))).missing.files).toEqual([abs]);
  });

  it('never read against the dotted config: a config holding the same key does not satisfy it', async () => {
    const home = fs.mkdtempSync(path.join(tmp, 'home-'));
    const r = await gate(m, host([], {}, home), { '~/': { myapp: true } });
    expect(r.eligible).toBe(false);
  });

  it('a target that cannot look for files (a sandbox image) skips the step and says so', async () => {
    const noFiles: GatingTarget = { id: 'img', label: 'image', platform: 'linux', env: {}, which: async (n) => Object.fromEntries(n.map((x) => [x, null])) };
    const r = await gate(m, noFiles);
    expect(r.eligible).toBe(true);
    expect(r.trace.find((t) => t.step === 'files')).toMatchObject({ skipped: true, detail: expect.stringMatching(/not checked on this target/) });
  });

  it('always: true skips the files step', async () => {
    const a = skill('{"openclaw": {"always": true, "requires": {"configs": ["~/.nope"]}}}');
    const r = await gate(a, host([], {}, fs.mkdtempSync(path.join(tmp, 'home-'))));
    expect(r.eligible).toBe(true);
    expect(r.trace.find((t) => t.step === 'files')).toMatchObject({ skipped: true });
  });

  it('"~" is the target home; relative paths resolve to nothing', () => {
    expect(resolveRequiredFile('~/.a/b', '/home/x')).toBe('/home/x/.a/b');
    expect(resolveRequiredFile('~', '/home/x')).toBe('/home/x');
    expect(resolveRequiredFile('/etc/../etc/x', '/home/x')).toBe('/etc/x');
    expect(resolveRequiredFile('rel/x', '/home/x')).toBeNull();
  });
});
