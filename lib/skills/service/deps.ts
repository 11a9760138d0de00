/** A skill's declared and detected dependencies, checked in the target runtime, through the Runtime & Packages library. */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '@/db/client';
import type { Actor } from '../../auth/actor';
import { checkSkillDeps, startDepsInstall } from '../../packages/deps';
import { readSkillFiles } from '../../runtime/deps/read';
import type { ManagerContext } from '../../runtime/types';
import type { SkillCopy } from '../types';

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

/** "Install missing": one parent job with an install child per missing dependency. */
export async function startSkillDepsInstall(database: Database, actor: Actor, ctx: ManagerContext, copy: SkillCopy) {
  return startDepsInstall(database, actor, ctx, await depsInput(copy));
}
