import { eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { settings } from '@/db/schema';
import { recordAudit } from '../audit/audit';
import type { Actor } from '../auth/actor';
import { AppError } from '../core/errors';
import { logger } from '../core/logger';
import { secretMayTravelTo } from '../core/loopback';
import { MASK, resolveSecretUpdate, type SecretBox } from '../secrets/crypto';
import { changedFields } from './diff';
import { GITHUB_SETTINGS_DEFAULTS, type GithubSettings, type GithubSettingsPatch, githubSettingsSchema } from './github-settings';

const KEY = 'github';
const TOKEN_CONTEXT = 'setting:github.token';

/** `tokenOrigin`: the API origin the token was entered for; it is sent nowhere else. */
type Stored = GithubSettings & { sealedToken?: string | null; tokenOrigin?: string | null };

const originOf = (base: string) => new URL(base).origin;
const DEFAULT_ORIGIN = originOf(GITHUB_SETTINGS_DEFAULTS.apiBaseUrl);

async function readStored(db: AppDb): Promise<{ settings: GithubSettings; sealedToken: string | null; tokenOrigin: string | null }> {
  const [row] = await db.select().from(settings).where(eq(settings.key, KEY));
  if (!row) return { settings: GITHUB_SETTINGS_DEFAULTS, sealedToken: null, tokenOrigin: null };
  const { sealedToken = null, tokenOrigin, ...rest } = row.value as Stored;
  const parsed = githubSettingsSchema.safeParse(rest);
  if (!parsed.success) logger.warn('stored GitHub settings do not validate; using defaults', { issues: parsed.error.issues.map((i) => i.message) });
  const s = parsed.success ? parsed.data : GITHUB_SETTINGS_DEFAULTS;
  // Rows written before tokens were bound hold no origin: the token was entered for the base stored with it.
  return { settings: s, sealedToken, tokenOrigin: sealedToken ? (tokenOrigin ?? originOf(s.apiBaseUrl)) : null };
}

/** The stored token applies: bound to the current API origin, which takes secrets (HTTPS, or loopback HTTP). */
const tokenBound = (s: GithubSettings, sealedToken: string | null, tokenOrigin: string | null) =>
  !!sealedToken && tokenOrigin === originOf(s.apiBaseUrl) && secretMayTravelTo(new URL(s.apiBaseUrl));

/** The settings with the stored token opened (for the installer; never returned by the API). */
export async function getGithubSettings(db: AppDb, box: SecretBox): Promise<GithubSettings & { token: string | null }> {
  const { settings: s, sealedToken, tokenOrigin } = await readStored(db);
  return { ...s, token: sealedToken && tokenBound(s, sealedToken, tokenOrigin) ? box.open(sealedToken, TOKEN_CONTEXT) : null };
}

/** The settings as the API shows them: the token masked; GITHUB_TOKEN / GH_TOKEN count for the default base only. */
export async function publicGithubSettings(db: AppDb, env: Readonly<Record<string, string | undefined>> = process.env) {
  const { settings: s, sealedToken, tokenOrigin } = await readStored(db);
  const bound = tokenBound(s, sealedToken, tokenOrigin);
  const onDefault = originOf(s.apiBaseUrl) === DEFAULT_ORIGIN;
  const tokenSource = bound ? 'setting' : onDefault && env.GITHUB_TOKEN ? 'GITHUB_TOKEN' : onDefault && env.GH_TOKEN ? 'GH_TOKEN' : 'none';
  return { ...s, token: bound ? MASK : null, tokenSource } as const;
}

/** Merges a patch (the token sealed; "***" keeps it), audited with the token masked. */
export async function updateGithubSettings(db: AppDb, box: SecretBox, actor: Actor, patch: GithubSettingsPatch) {
  await db.transaction(async (tx) => {
    const before = await readStored(tx as unknown as AppDb);
    const { token, ...fields } = patch;
    const after = githubSettingsSchema.parse({ ...before.settings, ...fields });
    const plain = resolveSecretUpdate(token, before.sealedToken === null ? null : MASK);
    const origin = originOf(after.apiBaseUrl);
    if (plain !== null && plain !== MASK && !secretMayTravelTo(new URL(after.apiBaseUrl))) {
      throw new AppError('validation', 'A token is sent over HTTPS only (plain HTTP only to a loopback test server); use an https:// API base.', {
        issues: [{ path: 'token', message: 'needs an https:// API base' }],
      });
    }
    // A kept token stays only with the origin it was entered for: a new API base needs the token entered again.
    const keep = plain === MASK && before.tokenOrigin === origin;
    const sealedToken = keep ? before.sealedToken : plain === null || plain === MASK ? null : box.seal(plain, TOKEN_CONTEXT);
    const value: Stored = { ...after, sealedToken, tokenOrigin: sealedToken ? origin : null };
    const now = new Date();
    await tx
      .insert(settings)
      .values({ key: KEY, value, updatedAt: now, updatedBy: actor.label })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: now, updatedBy: actor.label } });
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
