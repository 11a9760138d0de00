import type { FieldErrors, Resolver } from 'react-hook-form';
import { field, formCodec, NOT_A_NUMBER, wordsOf } from '@/components/forms/field-codecs';
// The server's own schema: no Node imports, so the form validates with exactly the server's rules.
import { type RuntimeSettings as RuntimeSettingsValues, runtimeSettingsSchema as runtimeSettingsClientSchema } from '@/lib/settings/runtime-settings';

export type RuntimeSettingsKey = keyof RuntimeSettingsValues;
const RUNTIME_SETTINGS_KEYS = Object.keys(runtimeSettingsClientSchema.shape) as RuntimeSettingsKey[];

/** The form holds text: lists are one item per line (URLs) or separated by commas/spaces (binaries). */
const codec = formCodec({
  pipIndexUrl: field.text,
  pipExtraIndexUrls: field.lines(),
  pipFindLinks: field.lines(),
  pipNoIndex: field.flag,
  npmRegistry: field.text,
  binaries: field.words(' '),
  aptAutoUpdate: field.flag,
  updateTtlMinutes: field.wholeNumber,
  updateCheckIntervalHours: field.wholeNumber,
} satisfies Record<RuntimeSettingsKey, unknown>);
export type FormValues = ReturnType<typeof codec.toForm>;
export const splitBinaries = wordsOf;

export const BLANK: FormValues = {
  pipIndexUrl: '',
  pipExtraIndexUrls: '',
  pipFindLinks: '',
  pipNoIndex: false,
  npmRegistry: '',
  binaries: '',
  aptAutoUpdate: true,
  updateTtlMinutes: '60',
  updateCheckIntervalHours: '6',
};

export const toForm = (s: RuntimeSettingsValues): FormValues => codec.toForm(s);
export const fromForm = codec.fromForm;

/** Which item of a list field an issue is about, in the words of its input. */
function itemLabel(field: string, index: number, raw: ReturnType<typeof fromForm>): string {
  if (field === 'binaries') return `“${(raw.binaries as string[])[index]}”`;
  const list = (raw as Record<string, unknown>)[field];
  return Array.isArray(list) ? `Line ${index + 1} (${String(list[index])})` : `Item ${index + 1}`;
}

/** A message for an issue on `field` (a server issue path or a zod path), prefixed with the item it is about. */
export function issueMessage(path: (string | number)[], message: string, raw: ReturnType<typeof fromForm>): string {
  const [field, index] = path;
  if (codec.notANumber(String(field), raw)) return NOT_A_NUMBER;
  return typeof index === 'number' || (typeof index === 'string' && /^\d+$/.test(index))
    ? `${itemLabel(String(field), Number(index), raw)}: ${message}`
    : message;
}

/** Validation as you type: the form's text turned into settings and checked with the settings schema. */
export const resolver: Resolver<FormValues> = async (values) => {
  const raw = fromForm(values);
  const r = runtimeSettingsClientSchema.safeParse(raw);
  if (r.success) return { values, errors: {} };
  const errors: FieldErrors<FormValues> = {};
  for (const issue of r.error.issues) {
    const field = String(issue.path[0] ?? '') as keyof FormValues;
    if (!field || errors[field]) continue;
    errors[field] = { type: issue.code, message: issueMessage(issue.path as (string | number)[], issue.message, raw) };
  }
  return { values: {}, errors };
};

/** The fields whose value differs from what is stored. */
export function changedFields(stored: RuntimeSettingsValues, next: RuntimeSettingsValues): Partial<RuntimeSettingsValues> {
  const out: Record<string, unknown> = {};
  for (const k of RUNTIME_SETTINGS_KEYS) if (JSON.stringify(stored[k]) !== JSON.stringify(next[k])) out[k] = next[k];
  return out as Partial<RuntimeSettingsValues>;
}

export const LABELS: Record<RuntimeSettingsKey, string> = {
  pipIndexUrl: 'pip index URL',
  pipExtraIndexUrls: 'extra index URLs',
  pipFindLinks: 'find-links',
  pipNoIndex: 'only find-links',
  npmRegistry: 'npm registry',
  binaries: 'binaries to detect',
  aptAutoUpdate: 'apt auto-update',
  updateTtlMinutes: 'update TTL',
  updateCheckIntervalHours: 'check interval',
};
