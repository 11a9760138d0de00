/**
 * Where the skill sits in an extracted archive: SKILL.md at
 * the root, or in a single top folder, or in `package/` (npm-pack layout). ClawHub also
 * accepts skill.md, skills.md and SKILL.MD; whichever is found is renamed to SKILL.md.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '@/lib/core/errors';

/** In order of preference. */
export const SKILL_MD_NAMES = ['SKILL.md', 'skill.md', 'skills.md', 'SKILL.MD'] as const;

/** Archive junk that does not count as a second top-level entry. */
// process-wide: a constant table, never written
const JUNK = new Set(['__MACOSX', '.DS_Store']);

async function markerIn(dir: string): Promise<string | null> {
  const entries = await fsp.readdir(dir, { withFileTypes: true });
  const files = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
  return SKILL_MD_NAMES.find((n) => files.has(n)) ?? null;
}

async function candidateRoots(stagingDir: string): Promise<string[]> {
  const top = (await fsp.readdir(stagingDir, { withFileTypes: true })).filter((e) => !JUNK.has(e.name));
  const out = [stagingDir];
  if (top.length === 1 && top[0].isDirectory()) out.push(path.join(stagingDir, top[0].name));
  else if (top.some((e) => e.name === 'package' && e.isDirectory())) out.push(path.join(stagingDir, 'package'));
  return out;
}

/** Absolute path of the skill folder inside `stagingDir`, its marker normalised to SKILL.md. */
export async function locateSkillRoot(stagingDir: string): Promise<string> {
  for (const dir of await candidateRoots(stagingDir)) {
    const marker = await markerIn(dir);
    if (!marker) continue;
    if (marker !== 'SKILL.md') await fsp.rename(path.join(/*turbopackIgnore: true*/ dir, marker), path.join(dir, 'SKILL.md'));
    return path.resolve(dir);
  }
  throw new AppError('missing_skill_md', 'archive is missing SKILL.md', {
    hint: 'Put SKILL.md at the root of the archive, in a single top folder, or in package/.',
  });
}
