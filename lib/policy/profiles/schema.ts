// Profile names, inline rules and per-agent overrides as clients send them. Schema-only (zod): the
// browser, the agent forms and the API share it.
import { z } from 'zod';
import { settingsPatch } from '../../settings/patch';
import { profileRulesSchema } from '../types';

export const PROFILE_NAME = /^[a-z][a-z0-9_-]{0,62}$/;

export const profileName = z
  .string()
  .regex(PROFILE_NAME, 'A profile name is 1–63 lower-case letters, digits, "-" or "_", starting with a letter (no "/", no "..", no spaces).');

/** The rules as a client sends them: every field optional, the balanced defaults fill the rest; unknown fields refused. */
export const profileRulesInput = profileRulesSchema.strict();

/** Partial rules an agent layers over its profile (e.g. one deny group off). Absent fields stay absent. */
export const policyOverridesSchema = settingsPatch(profileRulesSchema.shape);
export type PolicyOverrides = z.infer<typeof policyOverridesSchema>;

/** A profile by name, or inline rules (a proposed, unsaved profile). */
export const profileRef = z.union([profileName, profileRulesInput]);
export type ProfileRef = z.infer<typeof profileRef>;
