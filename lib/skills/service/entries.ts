/**
 * Per-skill config entries and scanner acknowledgements. Env values and the apiKey are
 * sealed (AES-256-GCM, bound to the skill key) and only ever returned masked.
 */
import { eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { skillEntries, skillScanAcks } from '@/db/schema';
import { recordAudit } from '../../audit/audit';
import type { Actor } from '../../auth/actor';
import { MASK, type SecretBox } from '../../secrets/crypto';
import type { SkillEntryConfig } from '../types';
import type { SkillEntryInput } from './schemas';

export interface ScanAck {
  reason: string;
  acknowledgedBy: string;
  acknowledgedAt: Date;
}

export interface SkillEntryView {
  skillKey: string;
  enabled: boolean | null;
  /** Every configured env value masked. */
  env: Record<string, string>;
  apiKey: string | null;
  config: Record<string, unknown>;
  updatedAt: string | null;
  updatedBy: string | null;
}

const envContext = (key: string) => `skill-entry:${key}:env`;
const apiKeyContext = (key: string) => `skill-entry:${key}:apiKey`;

export async function loadEntryConfigs(db: AppDb): Promise<Map<string, SkillEntryConfig>> {
  const rows = await db.select().from(skillEntries);
  return new Map(
    rows.map((r) => [
      r.skillKey,
      { ...(r.enabled === null ? {} : { enabled: r.enabled }), envNames: r.envNames, hasApiKey: !!r.apiKeySealed, config: r.config },
    ]),
  );
}

export async function loadAcks(db: AppDb): Promise<Map<string, ScanAck>> {
  const rows = await db.select().from(skillScanAcks);
  return new Map(rows.map((r) => [r.contentHash, { reason: r.reason, acknowledgedBy: r.acknowledgedBy, acknowledgedAt: r.acknowledgedAt }]));
}

export async function getEntryView(db: AppDb, skillKey: string): Promise<SkillEntryView> {
  const [r] = await db.select().from(skillEntries).where(eq(skillEntries.skillKey, skillKey));
  if (!r) return { skillKey, enabled: null, env: {}, apiKey: null, config: {}, updatedAt: null, updatedBy: null };
  return {
    skillKey,
    enabled: r.enabled,
    env: Object.fromEntries(r.envNames.map((n) => [n, MASK])),
    apiKey: r.apiKeySealed ? MASK : null,
    config: r.config,
    updatedAt: r.updatedAt.toISOString(),
    updatedBy: r.updatedBy,
  };
}

/**
 * Applies an edit: `enabled`, `config` replace; `env` is merged name by name ("***" keeps the stored
 * value, "" or null removes it); `apiKey` "***" keeps, "" removes. Audited with secrets masked.
 */
export async function updateEntry(db: AppDb, box: SecretBox, actor: Actor, input: SkillEntryInput): Promise<SkillEntryView> {
  const key = input.skillKey;
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(skillEntries).where(eq(skillEntries.skillKey, key));
    const oldEnv = row?.envSealed ? (JSON.parse(box.open(row.envSealed, envContext(key))) as Record<string, string>) : {};
    const env = { ...oldEnv };
    for (const [name, value] of Object.entries(input.env ?? {})) {
      if (value === MASK) continue;
      if (value === '' || value === null) delete env[name];
      else env[name] = value;
    }
    const envNames = Object.keys(env).sort();
    let apiKeySealed = row?.apiKeySealed ?? null;
    if (input.apiKey !== undefined && input.apiKey !== MASK) apiKeySealed = input.apiKey ? box.seal(input.apiKey, apiKeyContext(key)) : null;
    const values = {
      enabled: input.enabled === undefined ? (row?.enabled ?? null) : input.enabled,
      envSealed: envNames.length ? box.seal(JSON.stringify(env), envContext(key)) : null,
      envNames,
      apiKeySealed,
      config: input.config ?? row?.config ?? {},
      updatedAt: new Date(),
      updatedBy: actor.label,
    };
    await tx
      .insert(skillEntries)
      .values({ skillKey: key, ...values })
      .onConflictDoUpdate({ target: skillEntries.skillKey, set: values });
    const shown = (e: { enabled: boolean | null; envNames: string[]; apiKey: boolean; config: unknown }) => ({
      enabled: e.enabled,
      env: Object.fromEntries(e.envNames.map((n) => [n, MASK])),
      apiKey: e.apiKey ? MASK : null,
      config: e.config,
    });
    await recordAudit(tx, actor, {
      action: 'skill.entry.update',
      targetType: 'skill',
      targetId: key,
      before: row ? shown({ enabled: row.enabled, envNames: row.envNames, apiKey: !!row.apiKeySealed, config: row.config }) : null,
      after: shown({ enabled: values.enabled, envNames, apiKey: !!apiKeySealed, config: values.config }),
    });
  });
  return getEntryView(db, key);
}

/** Records an admin's acknowledgement of a skill's critical findings (audited). */
export async function acknowledgeScan(db: AppDb, actor: Actor, input: { contentHash: string; reason: string; skill: string; findings: number }): Promise<void> {
  await db.transaction(async (tx) => {
    const values = { reason: input.reason, acknowledgedBy: actor.label, acknowledgedAt: new Date() };
    await tx
      .insert(skillScanAcks)
      .values({ contentHash: input.contentHash, ...values })
      .onConflictDoUpdate({ target: skillScanAcks.contentHash, set: values });
    // "contentDigest", not "contentHash": the audit log masks every key that mentions a hash (password hashes).
    await recordAudit(tx, actor, {
      action: 'skill.scan.acknowledge',
      targetType: 'skill',
      targetId: input.skill,
      after: { contentDigest: input.contentHash, reason: input.reason, criticalFindings: input.findings },
    });
  });
}

/** Every entry with its values opened: only for delivering them to the one gateway that needs them. */
export async function openEntries(
  db: AppDb,
  box: SecretBox,
): Promise<Map<string, { enabled: boolean | null; env: Record<string, string>; apiKey: string | null }>> {
  const rows = await db.select().from(skillEntries);
  return new Map(
    rows.map((r) => [
      r.skillKey,
      {
        enabled: r.enabled,
        env: r.envSealed ? (JSON.parse(box.open(r.envSealed, envContext(r.skillKey))) as Record<string, string>) : {},
        apiKey: r.apiKeySealed ? box.open(r.apiKeySealed, apiKeyContext(r.skillKey)) : null,
      },
    ]),
  );
}
