import { field, formCodec, NOT_A_NUMBER } from '@/components/forms/field-codecs';
import { type TerminalSettings, terminalSettingsSchema } from '@/lib/settings/terminal-settings';

export const terminalSettingsKey = ['settings', 'terminal'] as const;

export type Key = keyof TerminalSettings;
export const KEYS = Object.keys(terminalSettingsSchema.shape) as Key[];

/** The form holds numbers as the text typed; the schema judges them once turned back into numbers. */
const codec = formCodec({
  maxPerUser: field.wholeNumber,
  maxPerSandbox: field.wholeNumber,
  graceSeconds: field.wholeNumber,
  recheckSeconds: field.wholeNumber,
  recordTranscripts: field.flag,
  transcriptRetentionDays: field.wholeNumber,
  transcriptQuotaMb: field.wholeNumber,
} satisfies Record<Key, unknown>);
export type Form = ReturnType<typeof codec.toForm>;
export const toForm = (s: TerminalSettings): Form => codec.toForm(s);
export const fromForm = codec.fromForm;

export const LABELS: Record<Key, string> = {
  maxPerUser: 'terminals per user',
  maxPerSandbox: 'terminals per sandbox',
  graceSeconds: 're-attach grace',
  recheckSeconds: 'access re-check',
  recordTranscripts: 'record transcripts',
  transcriptRetentionDays: 'transcript retention',
  transcriptQuotaMb: 'transcript quota',
};

/** The field's own words for an issue: text where a number belongs is "Enter a whole number". */
export function issueText(key: string, message: string, raw: ReturnType<typeof fromForm>): string {
  return codec.notANumber(key, raw) ? NOT_A_NUMBER : message;
}
