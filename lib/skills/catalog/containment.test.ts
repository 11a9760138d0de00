import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SkillRoot, SourceKind } from '../types';
import { discoverSkills } from './discover';
import { makeTmp, writeSkill } from './testutil';

let tmp: string;
beforeEach(() => {
  tmp = makeTmp();
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const root = (kind: SourceKind, p: string): SkillRoot => ({ kind, path: p, precedence: 0 });

/** A skill outside every root, and `<rootDir>/<linkName>` symlinked to it. */
function linkedOutside(rootDir: string, linkName = 'linked'): string {
  const outside = writeSkill(path.join(tmp, 'outside', linkName));
  fs.mkdirSync(rootDir, { recursive: true });
  fs.symlinkSync(outside, path.join(rootDir, linkName));
  return outside;
}

describe('containment', () => {
  for (const kind of ['workspace', 'project', 'extra'] as const) {
    it(`${kind}: a skill folder symlinked outside the root is refused with symlink-escape`, async () => {
      const dir = path.join(tmp, kind);
      writeSkill(path.join(dir, 'inside'));
      linkedOutside(dir);
      const { copies, warnings } = await discoverSkills([root(kind, dir)]);
      expect(copies.map((c) => c.relDir)).toEqual(['inside']);
      expect(warnings.map((w) => [w.code, w.path])).toEqual([['symlink-escape', path.join(dir, 'linked')]]);
    });
  }

  it('allowSymlinkTargets lets a workspace skill resolve into an allowed folder', async () => {
    const dir = path.join(tmp, 'ws');
    linkedOutside(dir);
    const { copies, warnings } = await discoverSkills([root('workspace', dir)], { allowSymlinkTargets: [path.join(tmp, 'outside')] });
    expect(warnings).toEqual([]);
    expect(copies.map((c) => [c.relDir, c.dir])).toEqual([['linked', path.join(dir, 'linked')]]);
    // a target that is not the one linked to allows nothing
    const other = await discoverSkills([root('workspace', dir)], { allowSymlinkTargets: [path.join(tmp, 'elsewhere')] });
    expect(other.warnings.map((w) => w.code)).toEqual(['symlink-escape']);
  });

  it('a symlink that stays inside the root is fine', async () => {
    const dir = path.join(tmp, 'ws');
    writeSkill(path.join(dir, 'store', 'real'), 'aliased');
    fs.symlinkSync(path.join(dir, 'store', 'real'), path.join(dir, 'alias'));
    const { copies, warnings } = await discoverSkills([root('workspace', dir)]);
    expect(warnings).toEqual([]);
    expect(copies.map((c) => c.relDir)).toEqual(['alias', 'store/real']);
  });

  it('a root reached through a symlink contains its own folders', async () => {
    const real = path.join(tmp, 'real-root');
    writeSkill(path.join(real, 'plain'));
    writeSkill(path.join(real, 'store', 'target'), 'linked-in');
    fs.symlinkSync(path.join(real, 'store', 'target'), path.join(real, 'link'));
    fs.symlinkSync(real, path.join(tmp, 'root-link'));
    const dir = path.join(tmp, 'root-link');
    const { copies, warnings } = await discoverSkills([root('workspace', dir)]);
    expect(warnings).toEqual([]);
    expect(copies.map((c) => [c.relDir, c.dir])).toEqual([
      ['link', path.join(dir, 'link')],
      ['plain', path.join(dir, 'plain')],
      ['store/target', path.join(dir, 'store', 'target')],
    ]);
  });

  it('a symlinked group leaving the root is a path-escape for the skills inside', async () => {
    const dir = path.join(tmp, 'ws');
    writeSkill(path.join(tmp, 'outside-group', 'inner'));
    fs.mkdirSync(dir);
    fs.symlinkSync(path.join(tmp, 'outside-group'), path.join(dir, 'group'));
    const { copies, warnings } = await discoverSkills([root('workspace', dir)]);
    expect(copies).toEqual([]);
    expect(warnings.map((w) => [w.code, w.path])).toEqual([['path-escape', path.join(dir, 'group', 'inner')]]);
  });

  it('bundled: a symlink out of the root is refused even when the target is allowed', async () => {
    const dir = path.join(tmp, 'bundled');
    writeSkill(path.join(dir, 'pdf'));
    linkedOutside(dir);
    const { copies, warnings } = await discoverSkills([root('bundled', dir)], { allowSymlinkTargets: [path.join(tmp, 'outside')] });
    expect(copies.map((c) => c.relDir)).toEqual(['pdf']);
    expect(warnings.map((w) => w.code)).toEqual(['bundled-symlink-escape']);
  });

  it('bundled: escaping through a symlinked group is a bundled-root-escape', async () => {
    const dir = path.join(tmp, 'bundled');
    writeSkill(path.join(tmp, 'outside-group', 'inner'));
    fs.mkdirSync(dir);
    fs.symlinkSync(path.join(tmp, 'outside-group'), path.join(dir, 'group'));
    const { warnings } = await discoverSkills([root('bundled', dir)]);
    expect(warnings.map((w) => w.code)).toEqual(['bundled-root-escape']);
  });

  for (const kind of ['managed', 'personal'] as const) {
    it(`${kind}: symlinked skill folders load; a SKILL.md escaping its folder does not`, async () => {
      const dir = path.join(tmp, kind);
      const versions = path.join(tmp, 'store', 'versions');
      writeSkill(path.join(versions, 'weather', '1.2.0'), 'weather');
      fs.mkdirSync(dir, { recursive: true });
      fs.symlinkSync(path.join(versions, 'weather', '1.2.0'), path.join(dir, 'weather'));
      const sneaky = path.join(dir, 'sneaky');
      fs.mkdirSync(sneaky);
      fs.writeFileSync(path.join(tmp, 'elsewhere.md'), '---\nname: sneaky\ndescription: x\n---\n');
      fs.symlinkSync(path.join(tmp, 'elsewhere.md'), path.join(sneaky, 'SKILL.md'));
      const { copies, warnings } = await discoverSkills([root(kind, dir)]);
      expect(copies.map((c) => [c.relDir, c.parsed.manifest.name, c.parsed.valid])).toEqual([['weather', 'weather', true]]);
      expect(copies[0].dir).toBe(path.join(dir, 'weather'));
      expect(warnings.map((w) => [w.code, w.path])).toEqual([['symlink-escape', path.join(sneaky, 'SKILL.md')]]);
    });
  }

  it('a SKILL.md symlink pointing into the same folder is contained but the copy is flagged unsafe', async () => {
    const dir = path.join(tmp, 'managed');
    const skill = path.join(dir, 'odd');
    fs.mkdirSync(path.join(skill, 'docs'), { recursive: true });
    fs.writeFileSync(path.join(skill, 'docs', 'real.md'), '---\nname: odd\ndescription: Odd.\n---\n');
    fs.symlinkSync(path.join(skill, 'docs', 'real.md'), path.join(skill, 'SKILL.md'));
    const { copies, warnings } = await discoverSkills([root('managed', dir)]);
    expect(warnings).toEqual([]);
    expect(copies[0].parsed.manifest.name).toBe('odd');
    expect(copies[0].parsed.diagnostics.map((d) => d.code)).toContain('files.unsafe');
  });

  it('a dangling skill symlink is ignored and a dangling SKILL.md link is reported unreadable', async () => {
    const dir = path.join(tmp, 'ws');
    fs.mkdirSync(path.join(dir, 'half'), { recursive: true });
    fs.symlinkSync(path.join(tmp, 'gone'), path.join(dir, 'dangling'));
    fs.symlinkSync(path.join(tmp, 'gone.md'), path.join(dir, 'half', 'SKILL.md'));
    const { copies, warnings } = await discoverSkills([root('workspace', dir)]);
    expect(copies).toEqual([]);
    expect(warnings.map((w) => [w.code, w.path])).toEqual([['unreadable', path.join(dir, 'half')]]);
  });
});
