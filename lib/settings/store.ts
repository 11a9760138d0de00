import { eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { settings } from '@/db/schema';
import { recordAudit } from '../audit/audit';
import type { Actor } from '../auth/actor';
import { logger } from '../core/logger';
import { changedFields } from './diff';
import { RUNTIME_SETTINGS_DEFAULTS, runtimeSettingsSchema, type RuntimeSettings, type RuntimeSettingsPatch } from './runtime-settings';

const RUNTIME_KEY = 'runtime';

/** The stored runtime settings over the defaults; a stored value that no longer validates falls back to the defaults, logged. */
export async function getRuntimeSettings(db: AppDb): Promise<RuntimeSettings> {
  const [row] = await db.select().from(settings).where(eq(settings.key, RUNTIME_KEY));
  if (!row) return RUNTIME_SETTINGS_DEFAULTS;
  const parsed = runtimeSettingsSchema.safeParse(row.value);
  if (parsed.success) return parsed.data;
  logger.warn('stored runtime settings do not validate; using defaults', { issues: parsed.error.issues.map((i) => i.message) });
  return RUNTIME_SETTINGS_DEFAULTS;
}

/** Merges a validated patch over the stored settings, audited in the same transaction. */
export async function updateRuntimeSettings(db: AppDb, actor: Actor, patch: RuntimeSettingsPatch): Promise<RuntimeSettings> {
  return db.transaction(async (tx) => {
    const before = await getRuntimeSettings(tx as unknown as AppDb);
    const after = runtimeSettingsSchema.parse({ ...before, ...patch });
    const now = new Date();
    await tx
      .insert(settings)
      .values({ key: RUNTIME_KEY, value: after, updatedAt: now, updatedBy: actor.label })
      .onConflictDoUpdate({ target: settings.key, set: { value: after, updatedAt: now, updatedBy: actor.label } });
    await recordAudit(tx, actor, { action: 'settings.runtime.update', targetType: 'settings', targetId: RUNTIME_KEY, ...changedFields(Object.keys(patch), before, after) });
    return after;
  });
}
