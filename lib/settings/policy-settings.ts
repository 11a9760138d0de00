// No Node imports: the Settings form validates with this same schema in the browser.
import { z } from 'zod';
import { settingsPatch } from './patch';

/** The gateway exec's defaults: approvals, output cap and timeouts. */
export const policySettingsSchema = z.strictObject({
  approvalTimeoutSeconds: z.number().int().min(1).max(3600).default(120).describe('How long an approval request waits for an admin, in seconds'),
  approvalMode: z.enum(['wait', '202']).default('wait').describe('wait: the exec call waits for the decision; 202: it answers 202 with the request id at once'),
  outputCapBytes: z
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024)
    .describe('Bytes kept of stdout and of stderr (the rest is cut and flagged)'),
  defaultTimeoutMs: z.number().int().min(100).max(3_600_000).default(60_000).describe('Timeout of an exec that names none, in milliseconds'),
  maxTimeoutMs: z
    .number()
    .int()
    .min(100)
    .max(3_600_000)
    .default(600_000)
    .describe('The longest timeout an exec may ask for, in milliseconds (a longer one is refused with 400)'),
  maxConcurrentPerAgent: z
    .number()
    .int()
    .min(1)
    .max(64)
    .default(4)
    .describe('Commands one agent may have running at once; the next is refused with 429 until one ends'),
});
export type PolicySettings = z.infer<typeof policySettingsSchema>;
export const POLICY_SETTINGS_DEFAULTS: PolicySettings = policySettingsSchema.parse({});

/** PUT body: any subset of the fields; the rest keep their stored values. */
export const policySettingsPatch = settingsPatch(policySettingsSchema.shape);
export type PolicySettingsPatch = z.infer<typeof policySettingsPatch>;
