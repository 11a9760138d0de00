import type { z } from 'zod';
import { type githubSettingsOut, githubSettingsSchema } from '@/lib/settings/github-settings';

export type Stored = z.infer<typeof githubSettingsOut>;
export type Key = keyof z.infer<typeof githubSettingsSchema>;
export const KEYS = Object.keys(githubSettingsSchema.shape) as Key[];

/** The form holds text; numbers and the owner list are turned into settings for the schema. */
export interface Form {
  apiBaseUrl: string;
  downloadHosts: string;
  allowedOwners: string;
  maxAssetMb: string;
  requireChecksum: boolean;
  retainedVersions: string;
  smokeTimeoutSeconds: string;
}

const num = (s: string): number | string => (/^\s*-?\d+\s*$/.test(s) ? Number(s) : s.trim());
export const splitOwners = (s: string) => s.split(/[\s,]+/).filter(Boolean);
export const toForm = (s: Stored): Form => ({
  apiBaseUrl: s.apiBaseUrl,
  downloadHosts: s.downloadHosts.join(', '),
  allowedOwners: s.allowedOwners.join(', '),
  maxAssetMb: String(s.maxAssetMb),
  requireChecksum: s.requireChecksum,
  retainedVersions: String(s.retainedVersions),
  smokeTimeoutSeconds: String(s.smokeTimeoutSeconds),
});
export const fromForm = (f: Form) => ({
  apiBaseUrl: f.apiBaseUrl.trim(),
  downloadHosts: splitOwners(f.downloadHosts),
  allowedOwners: splitOwners(f.allowedOwners),
  maxAssetMb: num(f.maxAssetMb),
  requireChecksum: f.requireChecksum,
  retainedVersions: num(f.retainedVersions),
  smokeTimeoutSeconds: num(f.smokeTimeoutSeconds),
});

/** A schema issue in the words of its input: numbers typed as text, the owner an issue is about. */
export function issueText(path: PropertyKey[], message: string, raw: ReturnType<typeof fromForm>): string {
  const field = String(path[0]);
  if (field !== 'apiBaseUrl' && typeof (raw as Record<string, unknown>)[field] === 'string') return 'Enter a whole number';
  const list = (raw as Record<string, unknown>)[field];
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
