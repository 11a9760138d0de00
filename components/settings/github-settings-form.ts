import type { z } from 'zod';
import { field, formCodec, NOT_A_NUMBER, wordsOf } from '@/components/forms/field-codecs';
import { type githubSettingsOut, githubSettingsSchema } from '@/lib/settings/github-settings';

export type Stored = z.infer<typeof githubSettingsOut>;
export type Key = keyof z.infer<typeof githubSettingsSchema>;
export const KEYS = Object.keys(githubSettingsSchema.shape) as Key[];

/** The form holds text; numbers and the owner list are turned into settings for the schema. */
const codec = formCodec({
  apiBaseUrl: field.text,
  downloadHosts: field.words(', '),
  allowedOwners: field.words(', '),
  maxAssetMb: field.wholeNumber,
  requireChecksum: field.flag,
  retainedVersions: field.wholeNumber,
  smokeTimeoutSeconds: field.wholeNumber,
} satisfies Record<Key, unknown>);
export type Form = ReturnType<typeof codec.toForm>;
export const splitOwners = wordsOf;
export const toForm = (s: Stored): Form => codec.toForm(s);
export const fromForm = codec.fromForm;

/** A schema issue in the words of its input: numbers typed as text, the owner an issue is about. */
export function issueText(path: PropertyKey[], message: string, raw: ReturnType<typeof fromForm>): string {
  const field = String(path[0]);
  if (codec.notANumber(field, raw)) return NOT_A_NUMBER;
  const list = raw[field as Key];
  return typeof path[1] === 'number' && Array.isArray(list) ? `“${list[path[1]]}”: ${message}` : message;
}

export const LABELS: Record<Key | 'token', string> = {
  apiBaseUrl: 'API base URL',
  downloadHosts: 'download hosts',
  allowedOwners: 'allowed owners',
  maxAssetMb: 'max asset size',
  requireChecksum: 'require checksum',
  retainedVersions: 'retained versions',
  smokeTimeoutSeconds: 'smoke-test timeout',
  token: 'token',
};
export const TOKEN_SOURCE: Record<Stored['tokenSource'], string> = {
  setting: 'the token saved here',
  GITHUB_TOKEN: 'the GITHUB_TOKEN environment variable of the server',
  GH_TOKEN: 'the GH_TOKEN environment variable of the server',
  none: 'no token: anonymous requests (60 an hour)',
};

/** The origin of a URL as typed, or the text itself while it is not a URL yet. */
export function originOf(url: string): string {
  try {
    return new URL(url.trim()).origin;
  } catch {
    return url.trim();
  }
}
