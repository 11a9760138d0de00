import { errorMessage } from '@/components/error-message';
import { type FieldCodec, field, formCodec, itemsOf, NOT_A_NUMBER } from '@/components/forms/field-codecs';
import { type SkillsSettings, skillsSettingsSchema } from '@/lib/settings/skills-settings';

export type SettingsKey = keyof SkillsSettings;
export const SETTINGS_KEYS = Object.keys(skillsSettingsSchema.shape) as SettingsKey[];

/** ".PNG" as typed means png. */
const noDot = (s: string) => s.replace(/^\./, '');
/** Extensions or names in order, separated by commas or newlines. */
const commaList: FieldCodec<string[], string> = { toForm: (v) => v.join(', '), fromForm: (t) => itemsOf(t, true) };
const fileTypes: FieldCodec<string[], string> = { toForm: (v) => v.join(', '), fromForm: (t) => itemsOf(t, true).map(noDot) };

/** The fields held as typed text or a switch; the bundled allowlist, update policy and config are below. */
const codec = formCodec({
  workspaceDir: field.text,
  personalDir: field.text,
  bundledDir: field.text,
  extraDirs: field.lines(true),
  allowSymlinkTargets: field.lines(true),
  maxCandidatesPerRoot: field.wholeNumber,
  maxSkillFileBytes: field.wholeNumber,
  watch: field.flag,
  watchDebounceMs: field.wholeNumber,
  uploadMaxMb: field.wholeNumber,
  allowUploadedArchives: field.flag,
  allowedFileTypes: fileTypes,
  allowedBinaryFileTypes: fileTypes,
  allowBinaryFiles: field.flag,
  urlHostAllowlist: field.lines(true),
  urlPrivateHosts: field.lines(true),
  gitAllowLocal: field.flag,
  clawhubBaseUrl: field.text,
  metadataKeys: commaList,
  updateCheckHours: field.wholeNumber,
} satisfies Partial<Record<SettingsKey, unknown>>);

export type SkillsSettingsForm = ReturnType<typeof codec.toForm> & {
  /** Every bundled skill allowed (the list below is then ignored). */
  allowAllBundled: boolean;
  allowBundled: string;
  /** Edited in the skills catalog's Updates panel; carried through unchanged here. */
  updatePolicy: SkillsSettings['updatePolicy'];
  /** The gateway config as JSON. */
  config: string;
};

export const LABELS: Record<SettingsKey, string> = {
  workspaceDir: 'workspace folder',
  personalDir: 'personal folder',
  bundledDir: 'bundled folder',
  extraDirs: 'extra folders',
  allowSymlinkTargets: 'symlink targets',
  maxCandidatesPerRoot: 'skills per root',
  maxSkillFileBytes: 'SKILL.md size limit',
  watch: 'watch',
  watchDebounceMs: 'watch delay',
  allowBundled: 'allowed bundled skills',
  uploadMaxMb: 'upload limit',
  allowUploadedArchives: 'archive uploads',
  allowedFileTypes: 'allowed file types',
  allowedBinaryFileTypes: 'allowed binary file types',
  allowBinaryFiles: 'binary files',
  urlHostAllowlist: 'URL host allowlist',
  urlPrivateHosts: 'private hosts',
  gitAllowLocal: 'local git',
  clawhubBaseUrl: 'ClawHub URL',
  metadataKeys: 'metadata blocks',
  updatePolicy: 'update policy',
  updateCheckHours: 'update check interval',
  config: 'gateway config',
};

export const toForm = (s: SkillsSettings): SkillsSettingsForm => ({
  ...codec.toForm(s),
  allowAllBundled: s.allowBundled === null,
  allowBundled: (s.allowBundled ?? []).join('\n'),
  updatePolicy: s.updatePolicy,
  config: JSON.stringify(s.config, null, 2),
});

/** The settings for the form, the problems by field, and the patch of what differs from `stored`. */
export function fromForm(f: SkillsSettingsForm, stored: SkillsSettings): { errors: Record<string, string>; patch: Partial<SkillsSettings> } {
  const errors: Record<string, string> = {};
  let config: unknown = {};
  try {
    config = f.config.trim() ? JSON.parse(f.config) : {};
  } catch (e) {
    errors.config = `Not valid JSON: ${errorMessage(e)}`;
  }
  const raw: Record<string, unknown> = {
    ...codec.fromForm(f),
    allowBundled: f.allowAllBundled ? null : itemsOf(f.allowBundled, true),
    updatePolicy: f.updatePolicy,
    config: errors.config ? stored.config : config,
  };
  const parsed = skillsSettingsSchema.safeParse(raw);
  if (!parsed.success) {
    for (const i of parsed.error.issues) {
      const key = String(i.path[0]) as SettingsKey;
      if (errors[key]) continue;
      if (codec.notANumber(key, raw)) errors[key] = NOT_A_NUMBER;
      else if (typeof i.path[1] === 'number' && Array.isArray(raw[key])) errors[key] = `“${(raw[key] as string[])[i.path[1]]}”: ${i.message}`;
      else errors[key] = key === 'config' ? 'The config must be a JSON object' : i.message;
    }
  }
  const patch: Partial<SkillsSettings> = {};
  if (parsed.success && !Object.keys(errors).length) {
    for (const k of SETTINGS_KEYS) if (JSON.stringify(stored[k]) !== JSON.stringify(parsed.data[k])) (patch as Record<string, unknown>)[k] = parsed.data[k];
  }
  return { errors, patch };
}
