import type { AppDb } from '@/db/client';
import type { SecretBox } from '../secrets/crypto';
import { getGithubSettings } from '../settings/github-store';
import { resolveGithubToken } from './client/client';
import type { GithubContext } from './install/installer';

/** The installer context with the stored settings and the token by precedence (setting, then GITHUB_TOKEN or GH_TOKEN for the default base only). */
export async function loadGithubContext(
  db: AppDb,
  box: SecretBox,
  base: Omit<GithubContext, 'db' | 'settings' | 'userAgent'> & { version: string },
): Promise<GithubContext> {
  const settings = await getGithubSettings(db, box);
  const { version, ...rest } = base;
  return {
    ...rest,
    db,
    settings: { ...settings, token: resolveGithubToken(settings.token, process.env, settings.apiBaseUrl).token },
    userAgent: `skilldock/${version}`,
  };
}
