// No Node imports: the Settings form validates with this same schema in the browser.
import { z } from 'zod';
import { importPolicyFields } from './import-policy';
import { settingsPatch } from './patch';

const absPath = z
  .string()
  .trim()
  .max(4096)
  .refine((v) => v === '' || v.startsWith('/'), 'an absolute path (or empty for the default)');
const HOST =
  /^(?=.{1,253}(?::\d{1,5})?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$|^\[[0-9a-f:.]+\](?::\d{1,5})?$/i;
const host = z.string().trim().regex(HOST, 'a host name or address, optionally with :port (no scheme or path)');
const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'https:' || u.protocol === 'http:') && !!u.hostname && !u.username && !u.password && !u.search && !u.hash;
    } catch {
      return false;
    }
  }, 'an http(s) URL such as https://clawhub.ai');

/** The metadata blocks a SKILL.md may carry its gates in (lib/skills/types MetadataKey), in the default order. */
export const METADATA_BLOCKS = ['openclaw', 'nodmix', 'clawdbot', 'clawdis', 'moltbot'] as const;
export type MetadataBlock = (typeof METADATA_BLOCKS)[number];

/** Each gateway flavour's own order of the blocks it reads (the first present wins). */
export const METADATA_FLAVOURS: Record<'all' | 'openclaw' | 'nodmix' | 'pulsebot', { label: string; keys: MetadataBlock[] }> = {
  all: { label: 'Every flavour (default)', keys: [...METADATA_BLOCKS] },
  openclaw: { label: 'OpenClaw', keys: ['openclaw', 'clawdbot'] },
  nodmix: { label: 'Nodmix', keys: ['nodmix', 'clawdbot'] },
  pulsebot: { label: 'PulseBot', keys: ['openclaw', 'clawdbot', 'clawdis', 'moltbot'] },
};

export const metadataKeysSchema = z
  .array(z.enum(METADATA_BLOCKS))
  .min(1, 'read at least one metadata block')
  .max(METADATA_BLOCKS.length)
  .refine((keys) => new Set(keys).size === keys.length, 'name each metadata block once');

export const UPDATE_POLICIES = ['off', 'notify', 'auto'] as const;
export const updatePolicy = z.enum(UPDATE_POLICIES);
export type UpdatePolicy = z.infer<typeof updatePolicy>;

/** Skill roots, limits and import policy. Empty paths mean the default under the data dir. */
export const skillsSettingsSchema = z.strictObject({
  workspaceDir: absPath.default('').describe('Workspace folder: its skills/ (precedence 1) and .agents/skills (2); default <data dir>/workspace'),
  personalDir: absPath.default('').describe('Personal skills folder (precedence 3); default ~/.agents/skills'),
  bundledDir: absPath.default('').describe('Bundled skills folder (precedence 5); default <data dir>/skills/bundled'),
  extraDirs: z
    .array(absPath.refine((v) => v !== '', 'an absolute path'))
    .max(20)
    .default([])
    .describe('Extra skill folders, lowest precedence, in this order'),
  allowSymlinkTargets: z
    .array(absPath.refine((v) => v !== '', 'an absolute path'))
    .max(20)
    .default([])
    .describe('Folders a workspace, project or extra skill may be a symlink into'),
  maxCandidatesPerRoot: z.number().int().min(1).max(10_000).default(300).describe('Skill folders read per root; the rest are ignored with a warning'),
  maxSkillFileBytes: z.number().int().min(1024).max(1_000_000).default(256_000).describe('Largest SKILL.md accepted, in bytes'),
  watch: z.boolean().default(true).describe('Pick up changes in skill folders without a restart'),
  watchDebounceMs: z.number().int().min(50).max(10_000).default(250).describe('Quiet time before a change is picked up, in ms'),
  allowBundled: z
    .array(z.string().trim().min(1).max(64))
    .max(500)
    .nullable()
    .default(null)
    .describe('Bundled skills allowed (by key or name); null allows all'),
  ...importPolicyFields,
  uploadMaxMb: z.number().int().min(1).max(512).default(256).describe('Largest skill archive accepted, in MiB (at most 512)'),
  urlHostAllowlist: z.array(host).max(100).default([]).describe('Only these hosts may be imported from by URL; empty allows any public host'),
  urlPrivateHosts: z.array(host).max(20).default([]).describe('Hosts an admin allows even though they resolve to loopback or private addresses'),
  gitAllowLocal: z.boolean().default(false).describe('Allow git imports from local paths and file:// URLs'),
  clawhubBaseUrl: httpUrl.default('https://clawhub.ai').describe('ClawHub registry base URL'),
  updatePolicy: z
    .strictObject({ clawhub: updatePolicy.default('notify'), git: updatePolicy.default('notify'), url: updatePolicy.default('notify') })
    .default({ clawhub: 'notify', git: 'notify', url: 'notify' })
    .describe('Per source kind, what a newer version found by the update check does: off (not checked), notify (shown), auto (applied when its scan is clean)'),
  updateCheckHours: z.number().int().min(0).max(720).default(24).describe('Hours between periodic update checks of imported skills; 0 turns them off'),
  metadataKeys: metadataKeysSchema
    .default([...METADATA_BLOCKS])
    .describe(
      'The SKILL.md metadata blocks whose gates and installers are read, in order (the first present wins). OpenClaw reads openclaw, clawdbot; Nodmix nodmix, clawdbot; PulseBot openclaw, clawdbot, clawdis, moltbot',
    ),
  config: z
    .record(z.string(), z.unknown())
    .default({})
    .describe('Gateway config that requires.config paths are checked against (e.g. {"browser": {"enabled": true}})'),
});
export type SkillsSettings = z.infer<typeof skillsSettingsSchema>;
export const SKILLS_SETTINGS_DEFAULTS: SkillsSettings = skillsSettingsSchema.parse({});

/** PUT body: any subset of the fields; the rest keep their stored values. */
export const skillsSettingsPatch = settingsPatch(skillsSettingsSchema.shape);
export type SkillsSettingsPatch = z.infer<typeof skillsSettingsPatch>;
