/**
 * The agents model: ids, skill lists, budgets and the request bodies, shared by the console's forms,
 * the server actions, the REST routes and the OpenAPI document. Schema-only: the browser imports it.
 * Every edit names the `revision` it started from (a body field, not If-Match, so both doors carry
 * it the same way); a stale one is refused with 409 conflict.
 */
import { z } from 'zod';
import { policyOverridesSchema, profileName } from '../policy/profiles/schema';

export const AGENT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** Path segments next to /api/v1/agents/{id}: an agent of that id could never be reached. */
// `matrix` is the console's allowlist matrix page, a sibling of /agents/{id}.
export const RESERVED_AGENT_IDS = ['defaults', 'allowlists', 'matrix'] as const;
export const MAX_LIST = 1000;
export const MAX_SKILL_NAME = 128;
export const MAX_BATCH = 1000;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export const agentId = z
  .string()
  .regex(AGENT_ID, 'An agent id is 1–64 lower-case letters, digits, "-" or "_", starting with a letter or digit (no "/", no "..").')
  .refine((id) => !(RESERVED_AGENT_IDS as readonly string[]).includes(id), {
    message: `${RESERVED_AGENT_IDS.map((n) => `"${n}"`).join(', ')} are reserved names.`,
  });

export const agentIdParams = z.strictObject({ id: agentId });

const skillName = z
  .string()
  .max(MAX_SKILL_NAME, `A skill name is at most ${MAX_SKILL_NAME} characters.`)
  .refine((s) => !CONTROL.test(s), { message: 'A skill name cannot hold control characters.' });

/** A list of skill names: duplicates are folded by the store, unknown names kept and warned. */
export const skillList = z.array(skillName).max(MAX_LIST, `A list holds at most ${MAX_LIST} skill names.`);

export const budgetSchema = z.strictObject({
  maxSkills: z.number().int().min(1, 'maxSkills must be at least 1.').max(MAX_LIST),
  maxChars: z.number().int().min(1, 'maxChars must be at least 1.').max(1_000_000),
});
export type BudgetInput = z.infer<typeof budgetSchema>;

const name = z.string().trim().min(1, 'Enter a name.').max(120);
const description = z.string().max(2000);
const configId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a sandbox config id.');
const revision = z.number().int().min(0).describe('The revision this edit starts from (409 conflict when it is stale)');

export const createAgentInput = z.strictObject({
  id: agentId,
  name,
  description: description.optional(),
  sandboxConfigId: configId.nullable().optional(),
  skills: skillList.nullable().optional().describe('Absent or null: inherit the defaults; []: no skills; a list: exactly those'),
  denySkills: skillList.optional(),
  budget: budgetSchema.nullable().optional(),
  riskProfile: profileName.nullable().optional().describe('The exec risk profile; absent or null: balanced'),
  policyOverrides: policyOverridesSchema.nullable().optional().describe('Exec rules layered over the profile'),
});
export type CreateAgentInput = z.infer<typeof createAgentInput>;

export const patchAgentInput = z.strictObject({
  revision,
  name: name.optional(),
  description: description.optional(),
  sandboxConfigId: configId.nullable().optional(),
  skills: skillList.nullable().optional().describe('null: back to inheriting the defaults'),
  denySkills: skillList.optional(),
  budget: budgetSchema.nullable().optional(),
  riskProfile: profileName.nullable().optional().describe('null: back to balanced'),
  policyOverrides: policyOverridesSchema.nullable().optional().describe('null: no overrides'),
});
export type PatchAgentInput = z.infer<typeof patchAgentInput>;

export const putDefaultsInput = z.strictObject({
  revision,
  skills: skillList.nullable().describe('null: unrestricted'),
  budget: budgetSchema.nullable().optional().describe('Absent keeps the stored budget; null: the built-in budget'),
});
export type PutDefaultsInput = z.infer<typeof putDefaultsInput>;

export const allowlistChange = z.strictObject({
  agentId,
  revision,
  skills: skillList.nullable().describe('null: inherit the defaults'),
  denySkills: skillList.optional(),
});
export type AllowlistChange = z.infer<typeof allowlistChange>;

export const allowlistBatchInput = z.strictObject({
  changes: z.array(allowlistChange).min(1, 'Send at least one change.').max(MAX_BATCH, `At most ${MAX_BATCH} changes at once.`),
});

export const gatewaySkillParams = z.strictObject({ id: agentId, name: z.string().min(1).max(MAX_SKILL_NAME) });
export const gatewayFileQuery = z.strictObject({ path: z.string().min(1).max(1024) });
/** At most this many skills per bundle request. */
export const MAX_BUNDLE_SKILLS = 100;
export const gatewayBundleQuery = z.strictObject({
  names: z
    .string()
    .min(1)
    .max(MAX_BUNDLE_SKILLS * (MAX_SKILL_NAME + 1))
    .describe(`Skill names separated by ",", at most ${MAX_BUNDLE_SKILLS}`),
});
export const explainQuery = z.strictObject({ skill: z.string().min(1).max(MAX_SKILL_NAME).optional() });
