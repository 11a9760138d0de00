// No Node imports: the console's Settings form validates with this same schema in the browser.
import { z } from 'zod';
import { settingsPatch } from './patch';

/** Programs skills commonly need; the runtime check looks for these unless the setting lists others. */
export const DEFAULT_BINARIES = ['git', 'curl', 'jq', 'ffprobe', 'pdfinfo', 'pandoc', 'gh', 'uv', 'docker'];

const httpUrl = (what: string) =>
  z
    .string()
    .trim()
    .max(2048)
    .refine((v) => {
      if (v === '') return true;
      try {
        const u = new URL(v);
        return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname && !u.username && !u.password && !/\s/.test(v);
      } catch {
        return false;
      }
    }, `${what} must be an http(s) URL without credentials (or empty for the default)`);

const urlOrPath = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .refine((v) => {
    if (/[\s\0]/.test(v) || v.startsWith('-')) return false;
    if (v.startsWith('/')) return true;
    try {
      const u = new URL(v);
      return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname && !u.username && !u.password;
    } catch {
      return false;
    }
  }, 'an http(s) URL or an absolute path');

const binaryName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/, 'a program name: letters, digits and . _ + - (no paths)');

/** Where packages come from and what the runtime checks: pip indexes, npm registry, detected binaries, update checks. */
export const runtimeSettingsSchema = z.strictObject({
  pipIndexUrl: httpUrl('The pip index URL').default('').describe('pip --index-url; empty = pip’s own configuration (PyPI)'),
  pipExtraIndexUrls: z
    .array(httpUrl('An extra index URL').refine((v) => v !== '', 'an http(s) URL'))
    .max(10)
    .default([])
    .describe('pip --extra-index-url, in order'),
  pipFindLinks: z.array(urlOrPath).max(10).default([]).describe('pip --find-links: local wheel folders or pages of links'),
  pipNoIndex: z.boolean().default(false).describe('pip --no-index: install only from the find-links (air-gapped hosts)'),
  npmRegistry: httpUrl('The npm registry').default('').describe('npm registry URL; empty = https://registry.npmjs.org/'),
  binaries: z
    .array(binaryName)
    .max(64)
    .default([...DEFAULT_BINARIES])
    .describe('Programs the runtime check looks for (skills commonly need them)'),
  aptAutoUpdate: z.boolean().default(true).describe('Run apt-get update before an install when the package lists are stale and the package is not found'),
  updateTtlMinutes: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(60)
    .describe('Update results older than this are stale and re-checked when the updates list is read'),
  updateCheckIntervalHours: z.number().int().min(0).max(168).default(6).describe('Scheduled update check; 0 turns it off'),
});
export type RuntimeSettings = z.infer<typeof runtimeSettingsSchema>;

/** PUT body: any subset of the fields; the rest keep their stored values. */
export const runtimeSettingsPatch = settingsPatch(runtimeSettingsSchema.shape);
export type RuntimeSettingsPatch = z.infer<typeof runtimeSettingsPatch>;

export const RUNTIME_SETTINGS_DEFAULTS: RuntimeSettings = runtimeSettingsSchema.parse({});

/** The string settings the package managers read (lib/runtime ManagerContext.settings). */
export function managerSettings(s: RuntimeSettings, actor?: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (s.pipIndexUrl) out.pipIndexUrl = s.pipIndexUrl;
  if (s.pipExtraIndexUrls.length) out.pipExtraIndexUrl = s.pipExtraIndexUrls.join(' ');
  if (s.pipFindLinks.length) out.pipFindLinks = s.pipFindLinks.join(' ');
  if (s.pipNoIndex) out.pipNoIndex = '1';
  if (s.npmRegistry) out.npmRegistry = s.npmRegistry;
  if (!s.aptAutoUpdate) out.aptAutoUpdate = 'off';
  if (actor) out.actor = actor;
  return out;
}
