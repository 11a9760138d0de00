// Discovery with a CopyCache kept across runs, on real folders: what kept its stat identity is not
// read again, and every kind of change is still seen.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SkillCopy, SkillRoot } from '../types';
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

/** One discovery; `loaded` lists the folders that were read (inspect runs only for those). */
async function discover(cache: CopyCache) {
  const loaded: string[] = [];
  const { copies, warnings } = await discoverSkills([ws(root)], { cache, inspect: (c) => void loaded.push(c.relDir) });
  return { copies, warnings, loaded: loaded.sort(), byDir: new Map(copies.map((c) => [c.relDir, c])) };
}

/** Waits until the filesystem clock has moved past `since` (a write after it gets a later ctime). */
async function tickAfter(file: string) {
  const before = fs.statSync(file, { bigint: true }).ctimeNs;
  for (let i = 0; i < 200; i++) {
    await new Promise((r) => setTimeout(r, 5));
    const probe = path.join(tmp, `.tick-${i}`);
    fs.writeFileSync(probe, '');
    const now = fs.statSync(probe, { bigint: true }).ctimeNs;
    fs.rmSync(probe);
    if (now > before) return;
  }
}

describe('discovery with a CopyCache', () => {
  it('reuses every copy of an unchanged tree: no folder read, the very same objects returned', async () => {
    writeSkill(path.join(root, 'alpha'), 'alpha', { 'scripts/run.sh': 'echo hi\n', 'references/a.md': '# A\n' });
    writeSkill(path.join(root, 'tools', 'beta'));
    const cache = new CopyCache({ racyMs: 0 });
    const first = await discover(cache);
    expect(first.loaded).toEqual(['alpha', 'tools/beta']);
    const second = await discover(cache);
    expect(second.loaded).toEqual([]);
    expect(second.copies).toHaveLength(2);
    second.copies.forEach((c, i) => expect(c).toBe(first.copies[i]));
  });

  it('sees a same-size rewrite whose mtime was set back (ctime moved), and reads only that folder', async () => {
    writeSkill(path.join(root, 'alpha'), 'alpha', { 'scripts/run.sh': 'echo aaa\n' });
    writeSkill(path.join(root, 'beta'));
    const cache = new CopyCache({ racyMs: 0 });
    const first = await discover(cache);
    const script = path.join(root, 'alpha', 'scripts/run.sh');
    const { atime, mtime } = fs.statSync(script);
    await tickAfter(script);
    fs.writeFileSync(script, 'echo bbb\n');
    fs.utimesSync(script, atime, mtime);
    const second = await discover(cache);
    expect(second.loaded).toEqual(['alpha']);
    expect(second.byDir.get('alpha')!.contentHash).not.toBe(first.byDir.get('alpha')!.contentHash);
    expect(second.byDir.get('beta')).toBe(first.byDir.get('beta'));
  });

  it('never trusts identities taken within the racy window: a rewrite right after the listing is seen', async () => {
    writeSkill(path.join(root, 'alpha'), 'alpha', { 'notes.md': 'one\n' });
    const cache = new CopyCache();
    const first = await discover(cache);
    const notes = path.join(root, 'alpha', 'notes.md');
    const { atime, mtime } = fs.statSync(notes);
    fs.writeFileSync(notes, 'two\n');
    fs.utimesSync(notes, atime, mtime);
    const second = await discover(cache);
    expect(second.loaded).toEqual(['alpha']);
    expect(second.byDir.get('alpha')!.contentHash).not.toBe(first.byDir.get('alpha')!.contentHash);
  });

  it('sees added, removed and renamed files, a new subfolder, a chmod and an edited SKILL.md', async () => {
    const dir = writeSkill(path.join(root, 'alpha'), 'alpha', { 'a.md': 'a\n', 'sub/b.md': 'b\n' });
    const cache = new CopyCache({ racyMs: 0 });
    let prev: SkillCopy = (await discover(cache)).byDir.get('alpha')!;
    const changes: [string, () => void][] = [
      ['add', () => fs.writeFileSync(path.join(dir, 'sub/c.md'), 'c\n')],
      ['remove', () => fs.rmSync(path.join(dir, 'a.md'))],
      ['rename', () => fs.renameSync(path.join(dir, 'sub/b.md'), path.join(dir, 'sub/d.md'))],
      ['new folder', () => fs.mkdirSync(path.join(dir, 'sub/deeper'))],
      ['file in new folder', () => fs.writeFileSync(path.join(dir, 'sub/deeper/e.md'), 'e\n')],
      ['chmod', () => fs.chmodSync(path.join(dir, 'sub/c.md'), 0o755)],
      ['SKILL.md', () => fs.writeFileSync(path.join(dir, 'SKILL.md'), skillMd('alpha', 'A new description.'))],
    ];
    for (const [what, change] of changes) {
      await tickAfter(path.join(dir, 'SKILL.md'));
      change();
      const next = await discover(cache);
      expect(next.loaded, what).toEqual(['alpha']);
      const copy = next.byDir.get('alpha')!;
      expect(copy, what).not.toBe(prev);
      expect((await discover(cache)).loaded, `${what}, then nothing`).toEqual([]);
      prev = copy;
    }
    expect(prev.files.map((f) => [f.path, f.mode])).toEqual([
      ['SKILL.md', 0o644 & ~process.umask()],
      ['sub/c.md', 0o755],
      ['sub/d.md', 0o644 & ~process.umask()],
      ['sub/deeper/e.md', 0o644 & ~process.umask()],
    ]);
    expect(prev.parsed.manifest.description).toBe('A new description.');
  });

  it('drops the folders a discovery no longer finds', async () => {
    writeSkill(path.join(root, 'alpha'));
    writeSkill(path.join(root, 'beta'));
    const cache = new CopyCache({ racyMs: 0 });
    await discover(cache);
    expect(cache.size).toBe(2);
    fs.rmSync(path.join(root, 'beta'), { recursive: true });
    expect((await discover(cache)).copies.map((c) => c.relDir)).toEqual(['alpha']);
    expect(cache.size).toBe(1);
  });
});
