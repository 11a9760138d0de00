import { z } from 'zod';
import { defineContract } from '../../http/contract';
import { UPDATE_POLICIES } from '../../settings/skills-settings';
import { updatePolicyInput, updateSlugParams, updatesApplyInput, updatesCheckInput } from '../../skills/updates/schemas';
import { jobOut } from '../schemas';
import { versionDiffOut } from '../skill-schemas';

const tag = 'Skills';
const policy = z.enum(UPDATE_POLICIES);
const kind = z.enum(['clawhub', 'git', 'url']);
const verdict = z.enum(['clean', 'warn', 'critical', 'error']);

export const skillUpdateOut = z.object({
  slug: z.string(),
  kind,
  source: z.string().describe('Where the skill was imported from'),
  version: z.string().describe('The active store version (vN)'),
  installedRef: z.string().describe('The installed version in the source’s terms: registry version, commit, ETag or sha256'),
  status: z.enum(['current', 'available', 'pinned', 'error', 'unchecked']),
  latestRef: z.string().nullable().describe('The newer version found (registry version, tag, commit or ETag)'),
  verdict: verdict.nullable().describe('The scanner’s verdict on the newer version'),
  critical: z.number().int(),
  filesChanged: z.number().int(),
  error: z.string().nullable(),
  checkedAt: z.string().nullable(),
  appliedAt: z.string().nullable(),
  policy: policy.nullable().describe('This skill’s own policy; null follows its source kind'),
  effectivePolicy: policy,
});

export const skillUpdatesOut = z.object({
  items: z.array(skillUpdateOut),
  available: z.number().int(),
  policies: z.object({ clawhub: policy, git: policy, url: policy }),
  checkHours: z.number().int(),
});

export const skillUpdateDetailOut = skillUpdateOut.extend({
  candidate: z
    .object({
      ref: z.string(),
      contentHash: z.string(),
      verdict,
      findings: z.number().int(),
      critical: z.number().int(),
      files: versionDiffOut.shape.files,
      textDiffs: versionDiffOut.shape.textDiffs,
      truncated: z.boolean().describe('Some text diffs were left out to bound the stored size'),
    })
    .nullable(),
});

export const skillLockOut = z.object({
  version: z.literal(1),
  skills: z.record(
    z.string(),
    z.looseObject({
      version: z.string(),
      installedAt: z.number(),
      ownerHandle: z.string().optional(),
      sourceRef: z.string().optional(),
      pinned: z.boolean().optional(),
      pinReason: z.string().optional(),
    }),
  ),
});

/** Updates of skills imported from ClawHub, git or a URL; merged into the one API list. */
export const skillUpdatesApi = {
  listSkillUpdates: defineContract({
    method: 'GET',
    path: '/api/v1/skills/updates',
    tag,
    summary: 'Every imported skill with its last update check, the newer version found, its scanner verdict and policy',
    permission: 'skills.read',
    response: skillUpdatesOut,
  }),
  skillUpdateDiff: defineContract({
    method: 'GET',
    path: '/api/v1/skills/updates/diff',
    tag,
    summary: 'One skill’s waiting update: files added, removed and changed against the installed version, text diffs and verdict',
    permission: 'skills.read',
    query: updateSlugParams,
    response: skillUpdateDetailOut,
  }),
  checkSkillUpdates: defineContract({
    method: 'POST',
    path: '/api/v1/skills/updates/check',
    tag,
    summary: 'Check sources for newer versions (one skill, several or all), as a job; newer versions are staged, scanned and diffed',
    permission: 'skills.write',
    body: updatesCheckInput,
    response: jobOut,
    status: 202,
  }),
  applySkillUpdates: defineContract({
    method: 'POST',
    path: '/api/v1/skills/updates/apply',
    tag,
    summary: 'Update one skill, several or every skill with an update waiting, as one job with a result per skill',
    permission: 'skills.write',
    body: updatesApplyInput,
    response: jobOut,
    status: 202,
  }),
  setSkillUpdatePolicy: defineContract({
    method: 'PUT',
    path: '/api/v1/skills/updates/policy',
    tag,
    summary: 'Set the update policy (off, notify, auto when the scan is clean) of a source kind or of one skill',
    permission: 'skills.write',
    body: updatePolicyInput,
    response: z.object({ kind: kind.nullable(), slug: z.string().nullable(), policy: policy.nullable() }),
  }),
  skillsLock: defineContract({
    method: 'GET',
    path: '/api/v1/skills/lock',
    tag,
    summary: 'The managed skills’ lock (ClawHub’s .clawhub/lock.json format: slug → version, installedAt, owner, pin), from the database',
    permission: 'skills.read',
    response: skillLockOut,
  }),
} as const;
