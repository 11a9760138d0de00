// No Node imports: the Settings form validates with this same schema in the browser.
import { z } from 'zod';
import { settingsPatch } from './patch';

/** Browser terminal limits, re-attach grace, the access re-check and transcript recording. */
export const terminalSettingsSchema = z.strictObject({
  maxPerUser: z.number().int().min(1).max(50).default(3).describe('Open terminals per user (all sandboxes)'),
  maxPerSandbox: z.number().int().min(1).max(50).default(5).describe('Open terminals per sandbox (all users)'),
  graceSeconds: z.number().int().min(0).max(3600).default(300).describe('How long a terminal whose socket dropped waits for a re-attach, in seconds'),
  recheckSeconds: z.number().int().min(5).max(600).default(30).describe('How often an open terminal re-checks its user’s role and status, in seconds'),
  recordTranscripts: z.boolean().default(false).describe('Record each terminal’s input and output (admins download them)'),
  transcriptRetentionDays: z.number().int().min(1).max(3650).default(30).describe('Transcripts older than this are deleted'),
  transcriptQuotaMb: z
    .number()
    .int()
    .min(16)
    .max(1024 * 1024)
    .default(1024)
    .describe('Space all transcripts may take, in MiB: the oldest ended ones are deleted to make room for a new one'),
});
export type TerminalSettings = z.infer<typeof terminalSettingsSchema>;
export const TERMINAL_SETTINGS_DEFAULTS: TerminalSettings = terminalSettingsSchema.parse({});

/** PUT body: any subset of the fields; the rest keep their stored values. */
export const terminalSettingsPatch = settingsPatch(terminalSettingsSchema.shape);
export type TerminalSettingsPatch = z.infer<typeof terminalSettingsPatch>;
