import 'server-only';
import { defineOperation } from '../../http/operation';
import { skillSandboxGating } from '../../installs/gating/sandbox-gating';
import {
  configImage,
  getConfigInstall,
  type InstallServiceDeps,
  installIntoConfigs,
  installSkill,
  installSkills,
  listConfigInstalls,
  listSkillInstalls,
  rebuildImage,
  removeInstall,
  retryInstall,
  setInstallEnabled,
  stopInstall,
  updateInstall,
} from '../../installs/service';
import type { Services } from '../../services';
import { findSkill } from '../../skills/service/operations';
import { sourceLabel } from '../../skills/service/roots';
import { api } from '../contracts';

export const installDeps = (s: Services): InstallServiceDeps => ({
  database: s.database,
  dataDir: s.config.dataDir,
  sandboxes: s.sandboxes,
  otherSkill: async (key) => {
    const snap = await s.skills.snapshot();
    const hit = snap.skills.find((k) => k.copy.source !== 'managed' && (k.name === key || k.skillKey === key));
    return hit ? { source: sourceLabel(hit.copy.source).toLowerCase() } : null;
  },
});

/** Catalog skills installed into sandbox configs, and the configs' snapshot images. */
export const installOps = {
  listConfigSkills: defineOperation(api.listConfigSkills, async ({ services, params }) => ({
    items: await listConfigInstalls(installDeps(services), params.id),
  })),
  installConfigSkill: defineOperation(api.installConfigSkill, async ({ services, actor, params, body }) =>
    installSkill(installDeps(services), actor, params.id, body),
  ),
  bulkInstallConfigSkills: defineOperation(api.bulkInstallConfigSkills, async ({ services, actor, params, body }) =>
    installSkills(installDeps(services), actor, params.id, body),
  ),
  getConfigSkill: defineOperation(api.getConfigSkill, async ({ services, params }) => getConfigInstall(installDeps(services), params.id, params.skillKey)),
  patchConfigSkill: defineOperation(api.patchConfigSkill, async ({ services, actor, params, body }) =>
    setInstallEnabled(installDeps(services), actor, params.id, params.skillKey, body.enabled),
  ),
  removeConfigSkill: defineOperation(api.removeConfigSkill, async ({ services, actor, params }) =>
    removeInstall(installDeps(services), actor, params.id, params.skillKey),
  ),
  retryConfigSkill: defineOperation(api.retryConfigSkill, async ({ services, actor, params, body }) =>
    retryInstall(installDeps(services), actor, params.id, params.skillKey, body.notes),
  ),
  stopConfigSkill: defineOperation(api.stopConfigSkill, async ({ services, actor, params }) =>
    stopInstall(installDeps(services), actor, params.id, params.skillKey),
  ),
  updateConfigSkill: defineOperation(api.updateConfigSkill, async ({ services, actor, params, body }) =>
    updateInstall(installDeps(services), actor, params.id, params.skillKey, body.notes),
  ),
  listSkillInstalls: defineOperation(api.listSkillInstalls, async ({ services, params }) => ({
    items: await listSkillInstalls(installDeps(services), params.skillKey),
  })),
  installSkillIntoConfigs: defineOperation(api.installSkillIntoConfigs, async ({ services, actor, params, body }) =>
    installIntoConfigs(installDeps(services), actor, params.skillKey, body),
  ),
  getSkillSandboxGating: defineOperation(api.getSkillSandboxGating, async ({ services, params }) => {
    const { skill, copy } = await findSkill(services.skills, params.id);
    return skillSandboxGating({ ...services.sandboxes, probes: services.imageProbes }, { id: params.id, manifest: copy.parsed.manifest, gating: skill.gating });
  }),
  getConfigImage: defineOperation(api.getConfigImage, async ({ services, params }) => configImage(installDeps(services), params.id)),
  rebuildConfigImage: defineOperation(api.rebuildConfigImage, async ({ services, actor, params, body }) =>
    rebuildImage(installDeps(services), actor, params.id, body.reason),
  ),
};
