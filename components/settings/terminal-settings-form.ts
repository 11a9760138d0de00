import { type TerminalSettings, terminalSettingsSchema } from '@/lib/settings/terminal-settings';

export const terminalSettingsKey = ['settings', 'terminal'] as const;

export type Key = keyof TerminalSettings;
export const KEYS = Object.keys(terminalSettingsSchema.shape) as Key[];
type NumberKey = Exclude<Key, 'recordTranscripts'>;

/** The form holds numbers as the text typed; the schema judges them once turned back into numbers. */
export type Form = Record<NumberKey, string> & { recordTranscripts: boolean };

const num = (s: string): number | string => (/^\s*-?\d+\s*$/.test(s) ? Number(s) : s.trim());
export const toForm = (s: TerminalSettings): Form => ({
  maxPerUser: String(s.maxPerUser),
  maxPerSandbox: String(s.maxPerSandbox),
  graceSeconds: String(s.graceSeconds),
  recheckSeconds: String(s.recheckSeconds),
  recordTranscripts: s.recordTranscripts,
  transcriptRetentionDays: String(s.transcriptRetentionDays),
  transcriptQuotaMb: String(s.transcriptQuotaMb),
});
export const fromForm = (f: Form) => ({
  maxPerUser: num(f.maxPerUser),
  maxPerSandbox: num(f.maxPerSandbox),
  graceSeconds: num(f.graceSeconds),
  recheckSeconds: num(f.recheckSeconds),
  recordTranscripts: f.recordTranscripts,
  transcriptRetentionDays: num(f.transcriptRetentionDays),
  transcriptQuotaMb: num(f.transcriptQuotaMb),
});

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
export function issueText(field: string, message: string, raw: ReturnType<typeof fromForm>): string {
  return typeof (raw as Record<string, unknown>)[field] === 'string' ? 'Enter a whole number' : message;
}
