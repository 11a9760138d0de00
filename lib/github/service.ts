import type { AppDb } from '@/db/client';
import type { SecretBox } from '../secrets/crypto';
import { getGithubSettings } from '../settings/github-store';
import { resolveGithubToken } from './client/client';
import type { GithubContext } from './install/installer';

/** The installer context with the stored settings and the token by precedence (setting, GITHUB_TOKEN, GH_TOKEN). */
export async function loadGithubContext(
  db: AppDb,
  box: SecretBox,
  base: Omit<GithubContext, 'db' | 'settings' | 'userAgent'> & { version: string },
): Promise<GithubContext> {
  const settings = await getGithubSettings(db, box);
  const { version, ...rest } = base;
  return { ...rest, db, settings: { ...settings, token: resolveGithubToken(settings.token).token }, userAgent: `skilldock/${version}` };
}
