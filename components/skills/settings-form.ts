import { errorMessage } from '@/components/error-message';
import { type SkillsSettings, skillsSettingsSchema } from '@/lib/settings/skills-settings';

export type SettingsKey = keyof SkillsSettings;
export const SETTINGS_KEYS = Object.keys(skillsSettingsSchema.shape) as SettingsKey[];

/** The form holds text: lists one per line, numbers as typed, the config as JSON. */
export interface SkillsSettingsForm {
  workspaceDir: string;
  personalDir: string;
  bundledDir: string;
  extraDirs: string;
  allowSymlinkTargets: string;
  maxCandidatesPerRoot: string;
  maxSkillFileBytes: string;
  watch: boolean;
  watchDebounceMs: string;
  allowAllBundled: boolean;
  allowBundled: string;
  uploadMaxMb: string;
  allowUploadedArchives: boolean;
  /** Extensions, comma or newline separated. */
  allowedFileTypes: string;
  allowedBinaryFileTypes: string;
  allowBinaryFiles: boolean;
  urlHostAllowlist: string;
  urlPrivateHosts: string;
  gitAllowLocal: boolean;
  clawhubBaseUrl: string;
  /** Metadata block names in order, comma or newline separated. */
  metadataKeys: string;
  /** Edited in the skills catalog's Updates panel; carried through unchanged here. */
  updatePolicy: SkillsSettings['updatePolicy'];
  updateCheckHours: string;
  config: string;
}

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

const lines = (s: string) =>
  s
    .split(/[\n,]+/)
    .map((x) => x.trim())
    .filter(Boolean);
/** ".PNG" as typed means png. */
const noDot = (s: string) => s.replace(/^\./, '');
const num = (s: string): number | string => (/^\s*-?\d+\s*$/.test(s) ? Number(s) : s.trim());
const NUMERIC = new Set<SettingsKey>(['maxCandidatesPerRoot', 'maxSkillFileBytes', 'watchDebounceMs', 'uploadMaxMb', 'updateCheckHours']);

export const toForm = (s: SkillsSettings): SkillsSettingsForm => ({
  workspaceDir: s.workspaceDir,
  personalDir: s.personalDir,
  bundledDir: s.bundledDir,
  extraDirs: s.extraDirs.join('\n'),
  allowSymlinkTargets: s.allowSymlinkTargets.join('\n'),
  maxCandidatesPerRoot: String(s.maxCandidatesPerRoot),
  maxSkillFileBytes: String(s.maxSkillFileBytes),
  watch: s.watch,
  watchDebounceMs: String(s.watchDebounceMs),
  allowAllBundled: s.allowBundled === null,
  allowBundled: (s.allowBundled ?? []).join('\n'),
  uploadMaxMb: String(s.uploadMaxMb),
  allowUploadedArchives: s.allowUploadedArchives,
  allowedFileTypes: s.allowedFileTypes.join(', '),
  allowedBinaryFileTypes: s.allowedBinaryFileTypes.join(', '),
  allowBinaryFiles: s.allowBinaryFiles,
  urlHostAllowlist: s.urlHostAllowlist.join('\n'),
  urlPrivateHosts: s.urlPrivateHosts.join('\n'),
  gitAllowLocal: s.gitAllowLocal,
  clawhubBaseUrl: s.clawhubBaseUrl,
  metadataKeys: s.metadataKeys.join(', '),
  updatePolicy: s.updatePolicy,
  updateCheckHours: String(s.updateCheckHours),
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
  const raw = {
    workspaceDir: f.workspaceDir.trim(),
    personalDir: f.personalDir.trim(),
    bundledDir: f.bundledDir.trim(),
    extraDirs: lines(f.extraDirs),
    allowSymlinkTargets: lines(f.allowSymlinkTargets),
    maxCandidatesPerRoot: num(f.maxCandidatesPerRoot),
    maxSkillFileBytes: num(f.maxSkillFileBytes),
    watch: f.watch,
    watchDebounceMs: num(f.watchDebounceMs),
    allowBundled: f.allowAllBundled ? null : lines(f.allowBundled),
    uploadMaxMb: num(f.uploadMaxMb),
    allowUploadedArchives: f.allowUploadedArchives,
    allowedFileTypes: lines(f.allowedFileTypes).map(noDot),
    allowedBinaryFileTypes: lines(f.allowedBinaryFileTypes).map(noDot),
    allowBinaryFiles: f.allowBinaryFiles,
    urlHostAllowlist: lines(f.urlHostAllowlist),
    urlPrivateHosts: lines(f.urlPrivateHosts),
    gitAllowLocal: f.gitAllowLocal,
    clawhubBaseUrl: f.clawhubBaseUrl.trim(),
    metadataKeys: lines(f.metadataKeys),
    updatePolicy: f.updatePolicy,
    updateCheckHours: num(f.updateCheckHours),
    config: errors.config ? stored.config : config,
  };
  const parsed = skillsSettingsSchema.safeParse(raw);
  if (!parsed.success) {
    for (const i of parsed.error.issues) {
      const key = String(i.path[0]) as SettingsKey;
      if (errors[key]) continue;
      if (NUMERIC.has(key) && typeof raw[key] === 'string') errors[key] = 'Enter a whole number';
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
