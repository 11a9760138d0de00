import 'server-only';
import { DbBlobStore } from '../../cluster/blob-store';
import { AppError } from '../../core/errors';
import { defineOperation } from '../../http/operation';
import { enqueue } from '../../jobs';
import type { Services } from '../../services';
import { getRuntimeSettings, updateRuntimeSettings } from '../../settings';
import { getSkillsSettings, updateSkillsSettings } from '../../settings/store';
import { createClawhubClient } from '../../skills/remote';
import { toSarif } from '../../skills/scanner';
import {
  acknowledgeSkill,
  assertUploadsAllowed,
  diffSkillVersions,
  findSkill,
  listSkills,
  managedStore,
  readSkillFile,
  rollbackSkill,
  saveUpload,
  skillDeps,
  skillDetail,
  startSkillDepsInstall,
  uninstallSkill,
  updateEntry,
} from '../../skills/service';
import { assertSlugFree } from '../../skills/service/imports';
import { namedImport, skillImportJob } from '../../skills/service/jobs';
import { api } from '../contracts';

const num = (v: string | null) => (v !== null && /^\d{1,15}$/.test(v) ? Number(v) : undefined);

/** The skill catalog, its managed store and imports, and the runtime and skills settings. */
export const skillOps = {
  listSkills: defineOperation(api.listSkills, async ({ services, query }) => listSkills(services.skills, query)),
  getSkill: defineOperation(api.getSkill, async ({ services, params }) =>
    skillDetail(services.skills, services.database.db, services.config.dataDir, params.id),
  ),
  skillFile: defineOperation(api.skillFile, async ({ services, params, query }) =>
    readSkillFile(services.skills, services.config.dataDir, params.id, query.path, query.version),
  ),
  skillSarif: defineOperation(api.skillSarif, async ({ services, params }) => {
    const { skill } = await findSkill(services.skills, params.id);
    return toSarif(skill.name, skill.scan);
  }),
  skillDeps: defineOperation(api.skillDeps, async ({ services, params }) => {
    const { copy } = await findSkill(services.skills, params.id);
    return skillDeps(await services.packages.loadContext(services.database.db), copy);
  }),
  skillDepsInstall: defineOperation(api.skillDepsInstall, async ({ services, actor, body }) => {
    const { skill, copy } = await findSkill(services.skills, body.id);
    return startSkillDepsInstall(services.database, actor, await services.packages.loadContext(services.database.db), skill, copy);
  }),
  refreshSkills: defineOperation(api.refreshSkills, async ({ services }) => {
    const snap = await services.skills.refresh();
    return { version: snap.version, skills: snap.skills.length };
  }),
  updateSkillEntry: defineOperation(api.updateSkillEntry, async ({ services, actor, body }) => {
    const out = await updateEntry(services.database.db, services.secrets, actor, body);
    await services.skills.changed();
    return out;
  }),
  acknowledgeSkill: defineOperation(api.acknowledgeSkill, async ({ services, actor, body }) =>
    acknowledgeSkill(services.skills, services.database.db, actor, body),
  ),
  // The archive upload streams the raw request body (with progress in the browser), so it has a
  // route and no server action: an action would need the whole archive in memory as its argument.
  uploadSkill: defineOperation(
    api.uploadSkill,
    async ({ services, actor, req }) => {
      const r = req!;
      const settings = await getSkillsSettings(services.database.db);
      assertUploadsAllowed(settings);
      return saveUpload(uploadDeps(services), r.body, {
        maxBytes: settings.uploadMaxMb * 1024 * 1024,
        declaredSize: num(r.headers.get('content-length')),
        declaredSha256: r.headers.get('x-content-sha256') ?? undefined,
        filename: uploadFilename(r.headers.get('x-filename')),
        actor: actor.label,
        signal: r.signal,
      });
    },
    { restOnly: true },
  ),
  importSkill: defineOperation(api.importSkill, async ({ services, actor, body }) => {
    if (body.source.kind === 'upload') assertUploadsAllowed(await getSkillsSettings(services.database.db));
    await assertSlugFree(services.skillStore, body);
    return enqueue(services.database, actor, skillImportJob, await namedImport(services.database.db, body), { trusted: true });
  }),
  rollbackSkill: defineOperation(api.rollbackSkill, async ({ services, actor, body }) =>
    rollbackSkill(services.skills, services.database.db, services.skillStore, actor, body),
  ),
  uninstallSkill: defineOperation(api.uninstallSkill, async ({ services, actor, body }) =>
    uninstallSkill(services.skills, services.database.db, services.skillStore, actor, body),
  ),
  diffSkill: defineOperation(api.diffSkill, async ({ services, query }) => diffSkillVersions(services.skillStore, query)),
  clawhubSearch: defineOperation(api.clawhubSearch, async ({ services, query }) => {
    const settings = await getSkillsSettings(services.database.db);
    return createClawhubClient({ baseUrl: settings.clawhubBaseUrl }).search(query.q, query.limit);
  }),
};

/** Runtime and skills settings (GitHub settings live with the GitHub operations). */
export const settingsOps = {
  runtimeSettings: defineOperation(api.runtimeSettings, async ({ services }) => getRuntimeSettings(services.database.db)),
  updateRuntimeSettings: defineOperation(api.updateRuntimeSettings, async ({ services, actor, body }) =>
    updateRuntimeSettings(services.database.db, actor, body),
  ),
  skillsSettings: defineOperation(api.skillsSettings, async ({ services }) => getSkillsSettings(services.database.db)),
  updateSkillsSettings: defineOperation(api.updateSkillsSettings, async ({ services, actor, body }) => {
    const out = await updateSkillsSettings(services.database.db, actor, body);
    await services.skills.changed();
    return out;
  }),
};

/** The x-filename header (percent-encoded by the browser) as a safe display name; refused before any byte is read. */
function uploadFilename(raw: string | null): string | undefined {
  if (!raw) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    throw new AppError('validation', 'The x-filename header is not valid percent-encoding: encode the name with encodeURIComponent.', {
      issues: [{ path: 'x-filename', message: 'not valid percent-encoding' }],
    });
  }
  return name.replace(/[^\w.\- ]/g, '_').slice(0, 200);
}

/** Uploads go to the blob store every replica reads; this replica's data dir keeps a copy for its imports. */
const uploadDeps = (s: Services) => ({ db: s.database.db, blobs: new DbBlobStore(s.database.db), dir: managedStore(s.config.dataDir).uploadsDir });
