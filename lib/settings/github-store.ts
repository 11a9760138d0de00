import { eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { settings } from '@/db/schema';
import { recordAudit } from '../audit/audit';
import type { Actor } from '../auth/actor';
import { logger } from '../core/logger';
import { changedFields } from './diff';
import { MASK, resolveSecretUpdate, type SecretBox } from '../secrets/crypto';
import { GITHUB_SETTINGS_DEFAULTS, githubSettingsSchema, type GithubSettings, type GithubSettingsPatch } from './github-settings';

const KEY = 'github';
const TOKEN_CONTEXT = 'setting:github.token';

type Stored = GithubSettings & { sealedToken?: string | null };

async function readStored(db: AppDb): Promise<{ settings: GithubSettings; sealedToken: string | null }> {
  const [row] = await db.select().from(settings).where(eq(settings.key, KEY));
  if (!row) return { settings: GITHUB_SETTINGS_DEFAULTS, sealedToken: null };
  const { sealedToken = null, ...rest } = row.value as Stored;
  const parsed = githubSettingsSchema.safeParse(rest);
  if (!parsed.success) logger.warn('stored GitHub settings do not validate; using defaults', { issues: parsed.error.issues.map((i) => i.message) });
  return { settings: parsed.success ? parsed.data : GITHUB_SETTINGS_DEFAULTS, sealedToken };
}

/** The settings with the stored token opened (for the installer; never returned by the API). */
export async function getGithubSettings(db: AppDb, box: SecretBox): Promise<GithubSettings & { token: string | null }> {
  const { settings: s, sealedToken } = await readStored(db);
  return { ...s, token: sealedToken ? box.open(sealedToken, TOKEN_CONTEXT) : null };
}

/** The settings as the API shows them: the token masked. */
export async function publicGithubSettings(db: AppDb, env: Readonly<Record<string, string | undefined>> = process.env) {
  const { settings: s, sealedToken } = await readStored(db);
  const tokenSource = sealedToken ? 'setting' : env.GITHUB_TOKEN ? 'GITHUB_TOKEN' : env.GH_TOKEN ? 'GH_TOKEN' : 'none';
  return { ...s, token: sealedToken ? MASK : null, tokenSource } as const;
}

/** Merges a patch (the token sealed; "***" keeps it), audited with the token masked. */
export async function updateGithubSettings(db: AppDb, box: SecretBox, actor: Actor, patch: GithubSettingsPatch) {
  await db.transaction(async (tx) => {
    const before = await readStored(tx as unknown as AppDb);
    const { token, ...fields } = patch;
    const after = githubSettingsSchema.parse({ ...before.settings, ...fields });
    const plain = resolveSecretUpdate(token, before.sealedToken === null ? null : MASK);
    const sealedToken = plain === MASK ? before.sealedToken : plain === null ? null : box.seal(plain, TOKEN_CONTEXT);
    const value: Stored = { ...after, sealedToken };
    const now = new Date();
    await tx.insert(settings).values({ key: KEY, value, updatedAt: now, updatedBy: actor.label }).onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now, updatedBy: actor.label } });
    const diff = changedFields(Object.keys(fields), before.settings, after);
    const tokenChanged = sealedToken !== before.sealedToken;
    await recordAudit(tx, actor, {
      action: 'settings.github.update',
      targetType: 'settings',
      targetId: KEY,
      before: { ...diff.before, ...(tokenChanged ? { token: before.sealedToken ? MASK : null } : {}) },
      after: { ...diff.after, ...(tokenChanged ? { token: sealedToken ? MASK : null } : {}) },
    });
  });
  return publicGithubSettings(db);
}
