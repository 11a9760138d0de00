import type { AppDb } from '@/db/client';
import { AppError } from '../core/errors';
import type { Actor } from './actor';
import type { SetupInput } from './schemas';
import { removeSetupToken, requireSetupToken } from './setup-token';
import { type PublicUser, setupFirstOwner, userCount } from './users';

/**
 * First-run setup from the console or the API: refused cheaply once an owner exists, then only with
 * the one-time token; the token is gone once the owner exists.
 */
export async function claimFirstRun(db: AppDb, dataDir: string, token: string | undefined, input: SetupInput, actor: Actor): Promise<PublicUser> {
  if ((await userCount(db)) > 0) throw new AppError('setup_done', 'Setup is already complete. Sign in instead.');
  requireSetupToken(dataDir, token);
  const owner = await setupFirstOwner(db, input, actor);
  removeSetupToken(dataDir);
  return owner;
}
