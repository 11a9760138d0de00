// Real skill archives for import tests: well-formed zips of a skill folder, and hostile ones whose
// raw entries (a `..` path, a symlink) no well-behaved archiver would write.
import { createHash } from 'node:crypto';
import { buildZip, type ZipSpec } from '@/lib/skills/store/archive-corpus.fixtures';

export const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

/** A zip holding `files` under the top folder `dir` (as `zip -r dir.zip dir` makes it). */
export function zipSkill(dir: string, files: Record<string, string | Buffer>): Buffer {
  const entries: ZipSpec[] = [{ name: `${dir}/` }];
  for (const [rel, data] of Object.entries(files)) entries.push({ name: `${dir}/${rel}`, data });
  return buildZip(entries);
}

/** A zip of a valid skill plus one entry that climbs out of the extraction folder. */
export function traversalZip(dir: string, skillMd: string, outside = '../../../../skilldock-evil.txt'): Buffer {
  return buildZip([
    { name: `${dir}/SKILL.md`, data: skillMd },
    { name: `${dir}/${outside}`, data: 'written outside staging' },
  ]);
}

/** A zip of a valid skill plus a symlink entry pointing outside the skill. */
export function symlinkZip(dir: string, skillMd: string, target = '/etc/passwd'): Buffer {
  return buildZip([
    { name: `${dir}/SKILL.md`, data: skillMd },
    { name: `${dir}/escape`, data: target, method: 'store', unixMode: 0o120777 },
  ]);
}

/** A buffer of `bytes` that compresses badly (so a zip of it stays about that size). */
export function incompressible(bytes: number): Buffer {
  const out = Buffer.alloc(bytes);
  let h = createHash('sha256').update('seed').digest();
  for (let i = 0; i < bytes; i += h.length) {
    h.copy(out, i);
    h = createHash('sha256').update(h).digest();
  }
  return out;
}
