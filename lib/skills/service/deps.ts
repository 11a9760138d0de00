/** A skill's declared and detected dependencies, checked in the target runtime, through the Runtime & Packages library. */
import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '@/db/client';
import type { Actor } from '../../auth/actor';
import { checkSkillDeps, startDepsInstall } from '../../packages/deps';
import type { DepsCheckInput } from '../../packages/schemas';
import { readSkillFiles } from '../../runtime/deps/read';
import type { ManagerContext } from '../../runtime/types';
import { contentHash } from '../files';
import { parseSkillMd } from '../manifest';
import { declaredOf, scanSkillFiles } from '../scanner';
import type { SkillCopy } from '../types';
import { scanSkillDir } from './build';
import type { CatalogSkill } from './catalog';
import { assertScanAllows } from './scan-gate';

async function depsInput(copy: SkillCopy) {
  const skillMd = await fsp.readFile(path.join(copy.dir, 'SKILL.md'), 'utf8');
  const { files } = await readSkillFiles(copy.dir);
  return { skillMd, files };
}

/** Declared (`deps:`), scanned (imports, requires, shebangs) and install-spec packages, each satisfied or missing. */
export async function skillDeps(ctx: ManagerContext, copy: SkillCopy) {
  const report = await checkSkillDeps(ctx, await depsInput(copy));
  const installSpecs = copy.parsed.manifest.install
    .filter((i) => i.packageSpec)
    .map((i) => ({ kind: i.kind, label: i.label ?? null, bins: i.bins, spec: i.packageSpec! }));
  return { ...report, installSpecs };
}

const DOING = 'installing its dependencies';

/**
 * "Install missing": one parent job with an install child per missing dependency, refused (nothing
 * queued) while the copy's content has unacknowledged critical findings. A shadowed copy of other
 * content than the winner is scanned here: the catalog's verdict is the winner's.
 */
export async function startSkillDepsInstall(database: Database, actor: Actor, ctx: ManagerContext, skill: CatalogSkill, copy: SkillCopy) {
  const scan = copy.contentHash === skill.copy.contentHash ? skill.scan : await scanSkillDir(copy.dir, copy.files, copy.parsed.manifest);
  await assertScanAllows(database.db, { name: skill.name, contentHash: copy.contentHash, scan }, DOING);
  return startDepsInstall(database, actor, ctx, await depsInput(copy));
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * The same install for a skill sent as text (SKILL.md and scripts): scanned as sent, and refused
 * while critical unless its exact content (the content hash of the files sent) was acknowledged
 * in the catalog. A bare list of packages is no skill and is not scanned.
 */
export async function startSubmittedDepsInstall(database: Database, actor: Actor, ctx: ManagerContext, input: DepsCheckInput) {
  if (input.skillMd !== undefined || input.files?.length) {
    const files = [
      ...(input.skillMd !== undefined ? [{ path: 'SKILL.md', content: Buffer.from(input.skillMd, 'utf8') }] : []),
      ...(input.files ?? []).map((f) => ({ path: f.path, content: Buffer.from(f.content, 'utf8') })),
    ].map((f) => ({ ...f, sha256: sha256(f.content) }));
    const manifest = input.skillMd !== undefined ? parseSkillMd(input.skillMd, { sizeBytes: files[0].content.length }).manifest : null;
    const scan = await scanSkillFiles(files, manifest ? declaredOf(manifest) : { env: [], bins: [] });
    await assertScanAllows(
      database.db,
      { name: manifest?.name || 'The skill sent', contentHash: contentHash(files), scan },
      DOING,
      'Import the skill into the catalog and have an admin acknowledge its findings on its Findings tab; then install its dependencies from its Dependencies tab (or send exactly the acknowledged files).',
    );
  }
  return startDepsInstall(database, actor, ctx, input);
}
