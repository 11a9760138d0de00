// The catalog version a sandbox install is of: the managed skill store's active version of the
// slug (the one agents on the host get), its content hash, and the name its SKILL.md declares.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../core/errors';
import { parseSkillMd } from '../../skills/manifest';
import { managedStore } from '../../skills/service/roots';
import { freshStoreDir } from '../../skills/shared/registry';
import { activeVersion, listVersions } from '../../skills/store';
import { validateSlug, versionDir } from '../../skills/store/manifest';
import type { CatalogSkill } from '../records/store';

/** A skill the catalog lists from a root other than the managed store (workspace, bundled, …). */
export type OtherSkillLookup = (key: string) => Promise<{ source: string } | null>;

async function declaredName(dir: string, key: string): Promise<string> {
  const text = await fsp.readFile(path.join(dir, 'SKILL.md'), 'utf8').catch(() => null);
  if (text === null) return key;
  const name = parseSkillMd(text, { dirName: key }).manifest?.name?.trim();
  return name && name.length <= 200 ? name : key;
}

/** The managed store's active version of `key`, or null when the store does not hold it. */
export async function currentCatalogSkill(dataDir: string, key: string): Promise<CatalogSkill | null> {
  validateSlug(key);
  const store = managedStore(dataDir);
  await freshStoreDir(store.storeDir);
  const version = await activeVersion(store, key);
  if (!version) return null;
  const record = (await listVersions(store, key)).find((v) => v.version === version && v.present);
  if (!record) return null;
  return { key, name: await declaredName(versionDir(path.resolve(store.storeDir), key, version), key), version, contentHash: record.contentHash };
}

/** Like currentCatalogSkill, but a skill the store does not hold is refused with what to do. */
export async function requireCatalogSkill(dataDir: string, key: string, other?: OtherSkillLookup): Promise<CatalogSkill> {
  const skill = await currentCatalogSkill(dataDir, key);
  if (skill) return skill;
  const elsewhere = await other?.(key);
  if (elsewhere)
    throw new AppError(
      'invalid_state',
      `"${key}" is a ${elsewhere.source} skill, not one imported into the catalog: only imported skills can be installed into sandboxes. Import it into the catalog first.`,
      { details: { skillKey: key, source: elsewhere.source } },
    );
  throw new AppError('not_found', `No skill "${key}" is in the catalog; import it into the catalog first.`, { details: { skillKey: key } });
}

/** The catalog's current version per key, looked up once per key (null: not in the store). */
export function catalogVersions(dataDir: string): (key: string) => Promise<CatalogSkill | null> {
  const seen = new Map<string, Promise<CatalogSkill | null>>();
  return (key) => {
    let p = seen.get(key);
    if (!p) {
      p = currentCatalogSkill(dataDir, key).catch(() => null);
      seen.set(key, p);
    }
    return p;
  };
}
