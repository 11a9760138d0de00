import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { AppDb } from '@/db/client';
import { settings } from '@/db/schema';
import { recordAudit } from '../audit/audit';
import type { Actor } from '../auth/actor';
import { logger } from '../core/logger';
import { changedFields } from './diff';
import { POLICY_SETTINGS_DEFAULTS, type PolicySettings, type PolicySettingsPatch, policySettingsSchema } from './policy-settings';
import { RUNTIME_SETTINGS_DEFAULTS, type RuntimeSettings, type RuntimeSettingsPatch, runtimeSettingsSchema } from './runtime-settings';
import { SKILLS_SETTINGS_DEFAULTS, type SkillsSettings, type SkillsSettingsPatch, skillsSettingsSchema } from './skills-settings';
import { TERMINAL_SETTINGS_DEFAULTS, type TerminalSettings, type TerminalSettingsPatch, terminalSettingsSchema } from './terminal-settings';

/**
 * One settings area: a JSON document in the settings table under `key`, validated by its schema on
 * read and write. A stored value that no longer validates falls back to the defaults, logged.
 */
function settingsArea<T extends Record<string, unknown>, P extends Partial<T>>(key: string, schema: z.ZodType<T>, defaults: T) {
  async function get(db: AppDb): Promise<T> {
    const [row] = await db.select().from(settings).where(eq(settings.key, key));
    if (!row) return defaults;
    const parsed = schema.safeParse(row.value);
    if (parsed.success) return parsed.data;
    logger.warn(`stored ${key} settings do not validate; using defaults`, { issues: parsed.error.issues.map((i) => i.message) });
    return defaults;
  }
  /** Merges a validated patch over the stored settings, audited in the same transaction. */
  async function update(db: AppDb, actor: Actor, patch: P): Promise<T> {
    return db.transaction(async (tx) => {
      const before = await get(tx as unknown as AppDb);
      const after = schema.parse({ ...before, ...patch });
      const now = new Date();
      await tx
        .insert(settings)
        .values({ key, value: after, updatedAt: now, updatedBy: actor.label })
        .onConflictDoUpdate({ target: settings.key, set: { value: after, updatedAt: now, updatedBy: actor.label } });
      await recordAudit(tx, actor, {
        action: `settings.${key}.update`,
        targetType: 'settings',
        targetId: key,
        ...changedFields(Object.keys(patch), before, after),
      });
      return after;
    });
  }
  return { get, update };
}

const runtime = settingsArea<RuntimeSettings, RuntimeSettingsPatch>('runtime', runtimeSettingsSchema, RUNTIME_SETTINGS_DEFAULTS);
const skills = settingsArea<SkillsSettings, SkillsSettingsPatch>('skills', skillsSettingsSchema, SKILLS_SETTINGS_DEFAULTS);
const terminal = settingsArea<TerminalSettings, TerminalSettingsPatch>('terminal', terminalSettingsSchema, TERMINAL_SETTINGS_DEFAULTS);

export const getRuntimeSettings = runtime.get;
export const updateRuntimeSettings = runtime.update;
export const getSkillsSettings = skills.get;
export const updateSkillsSettings = skills.update;
const policy = settingsArea<PolicySettings, PolicySettingsPatch>('policy', policySettingsSchema, POLICY_SETTINGS_DEFAULTS);
export const getPolicySettings = policy.get;
export const updatePolicySettings = policy.update;
export const getTerminalSettings = terminal.get;
export const updateTerminalSettings = terminal.update;
