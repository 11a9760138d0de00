// Discovery with a CopyCache kept across runs, on real folders: a root whose folders kept their
// identity is not walked again, and every change that alters which folders are skills is still seen.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SkillRoot } from '../types';
import { CopyCache } from './copy-cache';
import { discoverSkills } from './discover';
import { makeTmp, skillMd, writeSkill } from './testutil';

let tmp: string;
let root: string;
beforeEach(() => {
  tmp = makeTmp();
  root = path.join(tmp, 'skills');
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const ws = (p: string): SkillRoot => ({ kind: 'workspace', path: p, precedence: 0 });

/** Waits until the filesystem clock has moved on (timestamps are coarse): a later write gets later times. */
async function tick() {
  const probe = path.join(tmp, '.tick');
  fs.writeFileSync(probe, '');
  const before = fs.statSync(probe, { bigint: true }).ctimeNs;
  for (let i = 0; i < 200; i++) {
    await new Promise((r) => setTimeout(r, 2));
    fs.writeFileSync(probe, String(i));
    if (fs.statSync(probe, { bigint: true }).ctimeNs > before) break;
  }
  fs.rmSync(probe);
}

/** One discovery: the folders found, the walks it needed, the warnings. */
async function discover(cache: CopyCache, groupDepth = 1) {
  const before = cache.roots.walks;
  const { copies, warnings } = await discoverSkills([ws(root)], { cache, groupDepth });
  await tick();
  return { dirs: copies.map((c) => c.relDir), walks: cache.roots.walks - before, warnings, copies };
}

/** What a discovery without any cache finds: the reference for every case. */
async function fresh(groupDepth = 1) {
  const { copies, warnings } = await discoverSkills([ws(root)], { groupDepth });
  return { dirs: copies.map((c) => c.relDir), warnings };
}

describe('discovery with kept root walks', () => {
  it('does not walk a root again when none of its folders changed', async () => {
    writeSkill(path.join(root, 'alpha'));
    writeSkill(path.join(root, 'tools', 'beta'), 'beta', { 'scripts/run.sh': 'echo hi\n' });
    fs.mkdirSync(path.join(root, 'tools', 'notes'));
    const cache = new CopyCache({ racyMs: 0 });
    expect((await discover(cache)).walks).toBe(1);
    const second = await discover(cache);
    expect(second.walks).toBe(0);
    expect(second.dirs).toEqual(['alpha', 'tools/beta']);
  });

  it('finds a skill added to a group, and one added at the top', async () => {
    writeSkill(path.join(root, 'tools', 'beta'));
    const cache = new CopyCache({ racyMs: 0 });
    await discover(cache);
    writeSkill(path.join(root, 'tools', 'gamma'));
    writeSkill(path.join(root, 'delta'));
    const after = await discover(cache);
    expect(after.dirs).toEqual(['delta', 'tools/beta', 'tools/gamma']);
    expect(after.dirs).toEqual((await fresh()).dirs);
  });

  it('finds a folder that gains SKILL.md, at the top and inside a group', async () => {
    fs.mkdirSync(path.join(root, 'tools', 'later'), { recursive: true });
    fs.mkdirSync(path.join(root, 'solo'), { recursive: true });
    const cache = new CopyCache({ racyMs: 0 });
    expect((await discover(cache)).dirs).toEqual([]);
    fs.writeFileSync(path.join(root, 'tools', 'later', 'SKILL.md'), skillMd('later'));
    expect((await discover(cache)).dirs).toEqual(['tools/later']);
    fs.writeFileSync(path.join(root, 'solo', 'SKILL.md'), skillMd('solo'));
    expect((await discover(cache)).dirs).toEqual(['solo', 'tools/later']);
  });

  it('a skill that loses SKILL.md becomes a group again, with no warning', async () => {
    writeSkill(path.join(root, 'alpha'), 'alpha', { 'inner/SKILL.md': skillMd('inner') });
    const cache = new CopyCache({ racyMs: 0 });
    expect((await discover(cache)).dirs).toEqual(['alpha']);
    fs.rmSync(path.join(root, 'alpha', 'SKILL.md'));
    const after = await discover(cache);
    expect(after.warnings).toEqual([]);
    expect(after.dirs).toEqual(['alpha/inner']);
    expect(after).toMatchObject(await fresh());
  });

  it('a file added inside a skill reloads that skill without walking the root', async () => {
    writeSkill(path.join(root, 'alpha'));
    writeSkill(path.join(root, 'beta'));
    const cache = new CopyCache({ racyMs: 0 });
    const first = await discover(cache);
    fs.writeFileSync(path.join(root, 'alpha', 'extra.md'), '# more\n');
    const after = await discover(cache);
    expect(after.walks).toBe(0);
    expect(after.copies[0].files.map((f) => f.path)).toEqual(['SKILL.md', 'extra.md']);
    expect(after.copies[1]).toBe(first.copies[1]);
  });

  it('a skill folder removed or renamed is seen', async () => {
    writeSkill(path.join(root, 'tools', 'alpha'));
    writeSkill(path.join(root, 'tools', 'beta'));
    const cache = new CopyCache({ racyMs: 0 });
    await discover(cache);
    fs.rmSync(path.join(root, 'tools', 'alpha'), { recursive: true });
    fs.renameSync(path.join(root, 'tools', 'beta'), path.join(root, 'tools', 'gamma'));
    expect((await discover(cache)).dirs).toEqual(['tools/gamma']);
  });

  it('keeps no walk that met a dangling link: the link coming to life is seen', async () => {
    writeSkill(path.join(root, 'alpha'));
    const target = path.join(tmp, 'elsewhere', 'linked');
    fs.symlinkSync(target, path.join(root, 'linked'));
    const cache = new CopyCache({ racyMs: 0 });
    expect((await discover(cache)).dirs).toEqual(['alpha']);
    writeSkill(target, 'linked');
    const after = await discover(cache);
    expect(after.walks).toBe(1);
    // The link leaves the root: refused as an escape, exactly as without the cache.
    expect(after).toMatchObject(await fresh());
    expect(after.warnings.map((w) => w.code)).toEqual(['symlink-escape']);
  });

  it('walks again while folder times are within the racy window', async () => {
    writeSkill(path.join(root, 'alpha'));
    const cache = new CopyCache({ racyMs: 60_000 });
    await discover(cache);
    expect((await discover(cache)).walks).toBe(1);
  });

  it('a missing root that appears is found', async () => {
    const cache = new CopyCache({ racyMs: 0 });
    expect((await discover(cache)).dirs).toEqual([]);
    writeSkill(path.join(root, 'alpha'));
    expect((await discover(cache)).dirs).toEqual(['alpha']);
  });
});
