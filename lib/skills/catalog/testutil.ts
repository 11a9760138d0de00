/** Temp-dir helpers for the catalog tests (real files, no mocks). Not used by production code. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SkillRoot, SourceKind } from '../types';

export function makeTmp(prefix = 'skilldock-catalog-'): string {
  // realpath: on some hosts the temp dir itself is reached through a symlink
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function skillMd(name: string, description = `The ${name} skill.`, body = `Use ${name} well.\n`): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}`;
}

/** Writes `<dir>/SKILL.md` (and any extra files) and returns dir. */
export function writeSkill(dir: string, name = path.basename(dir), extra: Record<string, string> = {}, description?: string): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), skillMd(name, description));
  for (const [rel, content] of Object.entries(extra)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

/** The six kinds in SOURCE_ORDER with their precedence, each under `base/<kind>`. */
export function sixRoots(base: string, extraCount = 1): SkillRoot[] {
  const kinds: SourceKind[] = ['workspace', 'project', 'personal', 'managed', 'bundled'];
  const roots: SkillRoot[] = kinds.map((kind, i) => ({ kind, path: path.join(base, kind), precedence: i }));
  for (let i = 0; i < extraCount; i++) roots.push({ kind: 'extra', path: path.join(base, `extra${i}`), precedence: kinds.length + i });
  return roots;
}
