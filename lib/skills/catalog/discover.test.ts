import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash } from '../files';
import type { SkillRoot } from '../types';
import { discoverSkills } from './discover';
import { copyId } from './load-copy';
import { makeTmp, skillMd, writeSkill } from './testutil';

let tmp: string;
beforeEach(() => {
  tmp = makeTmp();
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const ws = (p: string): SkillRoot => ({ kind: 'workspace', path: p, precedence: 0 });

describe('discoverSkills: layout', () => {
  it('finds root/<skill> and root/<group>/<skill>, nothing deeper with groupDepth 1', async () => {
    const root = path.join(tmp, 'skills');
    writeSkill(path.join(root, 'alpha'));
    writeSkill(path.join(root, 'tools', 'beta'));
    writeSkill(path.join(root, 'deep', 'er', 'gamma'));
    fs.writeFileSync(path.join(root, 'README.md'), 'not a skill');
    const { copies, warnings } = await discoverSkills([ws(root)]);
    expect(warnings).toEqual([]);
    expect(copies.map((c) => [c.relDir, c.group, c.parsed.manifest.name])).toEqual([
      ['alpha', undefined, 'alpha'],
      ['tools/beta', 'tools', 'beta'],
    ]);
    const deeper = await discoverSkills([ws(root)], { groupDepth: 2 });
    expect(deeper.copies.map((c) => c.relDir)).toEqual(['alpha', 'deep/er/gamma', 'tools/beta']);
    const flat = await discoverSkills([ws(root)], { groupDepth: 0 });
    expect(flat.copies.map((c) => c.relDir)).toEqual(['alpha']);
  });

  it('does not look for skills inside a skill folder', async () => {
    const root = path.join(tmp, 'skills');
    writeSkill(path.join(root, 'outer'), 'outer', { 'inner/SKILL.md': skillMd('inner') });
    const { copies } = await discoverSkills([ws(root)]);
    expect(copies.map((c) => c.relDir)).toEqual(['outer']);
    expect(copies[0].files.map((f) => f.path)).toEqual(['SKILL.md', 'inner/SKILL.md']);
  });

  it('skips dot-directories and node_modules at every level', async () => {
    const root = path.join(tmp, 'skills');
    writeSkill(path.join(root, 'kept'));
    writeSkill(path.join(root, '.hidden'));
    writeSkill(path.join(root, 'node_modules'), 'nm');
    writeSkill(path.join(root, 'group', '.git'), 'git');
    writeSkill(path.join(root, 'group', 'node_modules'), 'nm2');
    writeSkill(path.join(root, '.group', 'inside'));
    const { copies } = await discoverSkills([ws(root)]);
    expect(copies.map((c) => c.relDir)).toEqual(['kept']);
  });

  it('treats a missing root as empty, without a warning', async () => {
    const { copies, warnings } = await discoverSkills([ws(path.join(tmp, 'nope'))]);
    expect(copies).toEqual([]);
    expect(warnings).toEqual([]);
  });

  it('warns when a root is not a folder', async () => {
    fs.writeFileSync(path.join(tmp, 'file-root'), 'x');
    const { copies, warnings } = await discoverSkills([ws(path.join(tmp, 'file-root'))]);
    expect(copies).toEqual([]);
    expect(warnings.map((w) => w.code)).toEqual(['unreadable']);
  });

  it('gives each copy a stable id, its files and the content hash', async () => {
    const root = path.join(tmp, 'skills');
    writeSkill(path.join(root, 'alpha'), 'alpha', { 'scripts/run.sh': 'echo hi\n' });
    const [copy] = (await discoverSkills([ws(root)])).copies;
    expect(copy.id).toBe(copyId('workspace', root, 'alpha'));
    expect(copy.id).toMatch(/^[0-9a-f]{16}$/);
    expect(copy.dir).toBe(path.join(root, 'alpha'));
    expect(copy.files.map((f) => f.path)).toEqual(['SKILL.md', 'scripts/run.sh']);
    expect(copy.contentHash).toBe(contentHash(copy.files));
    expect(copy.parsed.valid).toBe(true);
    const again = (await discoverSkills([ws(root)])).copies[0];
    expect(again.id).toBe(copy.id);
    fs.writeFileSync(path.join(root, 'alpha', 'scripts', 'run.sh'), 'echo changed\n');
    expect((await discoverSkills([ws(root)])).copies[0].contentHash).not.toBe(copy.contentHash);
  });

  it('keeps a copy whose files cannot be listed, with a files.unsafe error', async () => {
    const root = path.join(tmp, 'skills');
    writeSkill(path.join(root, 'linked'));
    fs.symlinkSync('/etc/hostname', path.join(root, 'linked', 'leak.txt'));
    const { copies } = await discoverSkills([ws(root)]);
    expect(copies).toHaveLength(1);
    expect(copies[0].parsed.valid).toBe(false);
    expect(copies[0].files).toEqual([]);
    const d = copies[0].parsed.diagnostics.find((x) => x.code === 'files.unsafe');
    expect(d).toMatchObject({ severity: 'error', file: 'leak.txt' });
  });
});

describe('discoverSkills: limits', () => {
  it('loads the first maxCandidatesPerRoot folders by path and warns about the rest', async () => {
    const root = path.join(tmp, 'skills');
    for (const n of ['e', 'a', 'd', 'c', 'b']) writeSkill(path.join(root, `s-${n}`));
    const { copies, warnings } = await discoverSkills([ws(root)], { maxCandidatesPerRoot: 3 });
    expect(copies.map((c) => c.relDir)).toEqual(['s-a', 's-b', 's-c']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: 'limit-candidates', root, path: path.join(root, 's-d') });
    expect(warnings[0].message).toContain('5');
  });

  it('lists an oversized SKILL.md as an invalid copy instead of dropping it', async () => {
    const root = path.join(tmp, 'skills');
    writeSkill(path.join(root, 'small'));
    const big = path.join(root, 'big');
    fs.mkdirSync(big, { recursive: true });
    fs.writeFileSync(path.join(big, 'SKILL.md'), skillMd('big', 'Big one.', 'x'.repeat(300_000)));
    const { copies, warnings } = await discoverSkills([ws(root)]);
    const bigCopy = copies.find((c) => c.relDir === 'big')!;
    expect(bigCopy.parsed.valid).toBe(false);
    expect(bigCopy.parsed.diagnostics.map((d) => d.code)).toContain('file.too-large');
    expect(bigCopy.parsed.manifest.name).toBe('big');
    expect(copies.find((c) => c.relDir === 'small')!.parsed.valid).toBe(true);
    expect(warnings.map((w) => [w.code, w.path])).toEqual([['file-too-large', big]]);
  });

  it('applies a configured lower size limit too', async () => {
    const root = path.join(tmp, 'skills');
    writeSkill(path.join(root, 'medium'), 'medium', {}, 'y'.repeat(500));
    const { copies } = await discoverSkills([ws(root)], { maxSkillFileBytes: 100 });
    expect(copies[0].parsed.valid).toBe(false);
    expect(copies[0].parsed.diagnostics.filter((d) => d.code === 'file.too-large')).toHaveLength(1);
  });
});

describe('discoverSkills: real published skills', () => {
  it('loads every fixture skill as valid, with its files', async () => {
    const root = path.resolve('test/fixtures/skills-real/openclaw');
    const { copies, warnings } = await discoverSkills([{ kind: 'extra', path: root, precedence: 9 }]);
    expect(warnings).toEqual([]);
    expect(copies.length).toBe(fs.readdirSync(root).length);
    for (const c of copies) {
      expect(
        c.parsed.diagnostics.filter((d) => d.severity === 'error'),
        c.relDir,
      ).toEqual([]);
      expect(c.files.some((f) => f.path === 'SKILL.md')).toBe(true);
    }
  });
});
