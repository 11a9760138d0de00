// The catalog version an install record names, read from the managed skill store: its files with
// their bytes, its manifest and its resolved dependencies. The content must still hash to what the
// record was started with, so the image never holds anything but the version that was asked for.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../core/errors';
import { parseSkillDeps } from '../../runtime/deps/frontmatter';
import { readSkillFiles } from '../../runtime/deps/read';
import { resolveSkillDeps } from '../../runtime/deps/resolve';
import { scanSkillFiles } from '../../runtime/deps/scan';
import type { ResolvedDep } from '../../runtime/deps/types';
import { contentHash, listSkillFiles, SkillFilesError } from '../../skills/files';
import { parseSkillMd } from '../../skills/manifest';
import { freshStoreDir } from '../../skills/shared/registry';
import { validateSlug, validateVersion, versionDir } from '../../skills/store/manifest';
import type { SkillStore } from '../../skills/store/store-state';
import type { SkillManifest } from '../../skills/types';
import type { SkillFile } from '../docker/build';
import type { PlanSkillFile } from '../plan/types';

export interface StoredSkill {
  dir: string;
  manifest: SkillManifest;
  deps: ResolvedDep[];
  /** For the plan: paths, sizes, hashes and first lines. */
  planFiles: PlanSkillFile[];
  /** For the copy: the bytes and modes. */
  files: SkillFile[];
}

const LIMITS = { maxFiles: 2000, maxFileBytes: 32 * 1024 * 1024 };

export async function loadStoredSkill(store: SkillStore, slug: string, version: string, expectedHash: string): Promise<StoredSkill> {
  validateSlug(slug);
  validateVersion(version);
  const dir = versionDir(path.resolve(store.storeDir), slug, version);
  let st = await fsp.lstat(dir).catch(() => null);
  // a version imported through another replica that this one has not brought in yet
  if (!st) {
    await freshStoreDir(store.storeDir);
    st = await fsp.lstat(dir).catch(() => null);
  }
  if (!st?.isDirectory()) throw new AppError('not_found', `Version ${version} of ${slug} is not in the skill store; import it again.`);
  let listed: Awaited<ReturnType<typeof listSkillFiles>>;
  try {
    listed = await listSkillFiles(dir, LIMITS);
  } catch (e) {
    if (e instanceof SkillFilesError) throw new AppError('conflict', `The stored version ${slug} ${version} is damaged: ${e.message}`, { cause: e });
    throw e;
  }
  const hash = contentHash(listed);
  if (hash !== expectedHash)
    throw new AppError('digest_changed', `The stored files of ${slug} ${version} no longer hash to the content this install was started with.`, {
      details: { expected: expectedHash, found: hash },
    });
  const files: SkillFile[] = [];
  const planFiles: PlanSkillFile[] = [];
  for (const f of listed) {
    const data = await fsp.readFile(path.join(dir, f.path));
    files.push({ path: f.path, data, mode: f.mode & 0o777 });
    const nl = data.subarray(0, 512).indexOf(10);
    planFiles.push({ path: f.path, size: f.size, sha256: f.sha256, firstLine: data.subarray(0, nl < 0 ? 512 : nl).toString('utf8') });
  }
  const skillMd = files.find((f) => f.path === 'SKILL.md')?.data?.toString('utf8');
  if (skillMd === undefined) throw new AppError('missing_skill_md', `The stored version ${slug} ${version} has no SKILL.md.`);
  const parsed = parseSkillMd(skillMd, { dirName: slug });
  if (!parsed.valid) throw new AppError('invalid_skill', `SKILL.md of ${slug} ${version} is invalid.`, { details: { diagnostics: parsed.diagnostics } });
  const declared = parseSkillDeps(skillMd);
  const scanned = scanSkillFiles((await readSkillFiles(dir)).files).deps;
  const deps = resolveSkillDeps({ declared: declared.declared, excluded: declared.excluded, scanned }).deps;
  return { dir, manifest: parsed.manifest, deps, planFiles, files };
}
