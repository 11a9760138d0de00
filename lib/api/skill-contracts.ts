import { z } from 'zod';
import { defineContract } from '../http/contract';
import { skillsSettingsPatch, skillsSettingsSchema } from '../settings/skills-settings';
import {
  ackInput,
  clawhubSearchQuery,
  depsInstallInput,
  diffQuery,
  importInput,
  rollbackInput,
  skillEntryInput,
  skillFileQuery,
  skillIdParams,
  skillListQuery,
  slugInput,
} from '../skills/service/schemas';
import { depsInstallOut, depsReportOut } from './package-schemas';
import { jobOut } from './schemas';
import {
  ackOut,
  clawhubSearchOut,
  refreshSkillsOut,
  rollbackOut,
  sarifOut,
  skillDetailOut,
  skillEntryOut,
  skillFileOut,
  skillListOut,
  uninstallOut,
  uploadOut,
  versionDiffOut,
} from './skill-schemas';

const tag = 'Skills';
const installSpecsOut = z.array(z.object({ kind: z.string(), label: z.string().nullable(), bins: z.array(z.string()), spec: z.string() }));

/** The skill catalog's operations; merged into the one API list. */
export const skillsApi = {
  listSkills: defineContract({ method: 'GET', path: '/api/v1/skills', tag, summary: 'The catalog: every skill with status, eligibility, scanner verdict; counts per status; roots; search with highlights', permission: 'skills.read', query: skillListQuery, response: skillListOut }),
  getSkill: defineContract({ method: 'GET', path: '/api/v1/skills/{id}', tag, summary: 'One skill: manifest, diagnostics, files, gating trace, findings, shadowed copies, config entry, versions and drift', permission: 'skills.read', params: skillIdParams, response: skillDetailOut }),
  skillFile: defineContract({ method: 'GET', path: '/api/v1/skills/{id}/file', tag, summary: 'A file of the skill as text (binary files are reported, not sent)', permission: 'skills.read', params: skillIdParams, query: skillFileQuery, response: skillFileOut }),
  skillSarif: defineContract({ method: 'GET', path: '/api/v1/skills/{id}/sarif', tag, summary: 'The scanner findings as SARIF 2.1.0', permission: 'skills.read', params: skillIdParams, response: sarifOut }),
  skillDeps: defineContract({ method: 'GET', path: '/api/v1/skills/{id}/deps', tag, summary: 'Declared and detected dependencies, each satisfied or missing in the target runtime', permission: 'skills.read', params: skillIdParams, response: depsReportOut.extend({ installSpecs: installSpecsOut }) }),
  skillDepsInstall: defineContract({ method: 'POST', path: '/api/v1/skills/deps/install', tag, summary: 'Install every missing dependency of a skill: one parent job, one child per package', permission: 'packages.write', body: depsInstallInput, response: depsInstallOut, status: 202 }),
  refreshSkills: defineContract({ method: 'POST', path: '/api/v1/skills/refresh', tag, summary: 'Rediscover every root now (the watcher normally does this)', permission: 'skills.read', response: refreshSkillsOut }),
  updateSkillEntry: defineContract({ method: 'PUT', path: '/api/v1/skills/entry', tag, summary: 'Edit a config entry: enabled, env values and apiKey (sealed; "***" keeps), config bag', permission: 'skills.write', body: skillEntryInput, response: skillEntryOut }),
  acknowledgeSkill: defineContract({ method: 'POST', path: '/api/v1/skills/acknowledge', tag, summary: 'Acknowledge a skill’s critical scanner findings with a reason (audited), unblocking it', permission: 'skills.write', body: ackInput, response: ackOut }),
  uploadSkill: defineContract({ method: 'POST', path: '/api/v1/skills/uploads', tag, summary: 'Upload a .zip or .tar.gz skill archive (streamed; x-content-sha256 verified when sent); kept one hour for an import', permission: 'skills.write', consumes: 'application/octet-stream', response: uploadOut, status: 201 }),
  importSkill: defineContract({ method: 'POST', path: '/api/v1/skills/import', tag, summary: 'Import a skill from an upload, git, a URL or ClawHub into the managed store, as a job', permission: 'skills.write', body: importInput, response: jobOut, status: 202 }),
  rollbackSkill: defineContract({ method: 'POST', path: '/api/v1/skills/rollback', tag, summary: 'Make an earlier version of a managed skill the active one', permission: 'skills.write', body: rollbackInput, response: rollbackOut }),
  uninstallSkill: defineContract({ method: 'POST', path: '/api/v1/skills/uninstall', tag, summary: 'Remove a managed skill and all its versions', permission: 'skills.write', body: slugInput, response: uninstallOut }),
  diffSkill: defineContract({ method: 'GET', path: '/api/v1/skills/diff', tag, summary: 'Files added, removed and changed between two versions of a managed skill, with text diffs', permission: 'skills.read', query: diffQuery, response: versionDiffOut }),
  clawhubSearch: defineContract({ method: 'GET', path: '/api/v1/skills/clawhub/search', tag, summary: 'Search the configured ClawHub registry', permission: 'skills.read', query: clawhubSearchQuery, response: clawhubSearchOut }),
  skillsSettings: defineContract({ method: 'GET', path: '/api/v1/settings/skills', tag: 'Settings', summary: 'Skill roots, limits, watcher and import policy', permission: 'skills.read', response: skillsSettingsSchema }),
  updateSkillsSettings: defineContract({ method: 'PUT', path: '/api/v1/settings/skills', tag: 'Settings', summary: 'Change any of the skills settings; the others keep their values', permission: 'skills.write', body: skillsSettingsPatch, response: skillsSettingsSchema }),
} as const;
