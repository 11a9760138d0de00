import { eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { githubPackages } from '@/db/schema';
import { recordAudit } from '../../audit/audit';
import type { Actor } from '../../auth/actor';
import { AppError } from '../../core/errors';
import type { GithubChannelInput } from '../schemas';

/** Opts a package in or out of pre-releases; the next update check uses the new channel. */
export async function setGithubChannel(db: AppDb, actor: Actor, input: GithubChannelInput): Promise<GithubChannelInput> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ channel: githubPackages.channel }).from(githubPackages).where(eq(githubPackages.name, input.name)).for('update');
    if (!row) throw new AppError('not_found', `${input.name} is not installed from GitHub.`);
    await tx.update(githubPackages).set({ channel: input.channel }).where(eq(githubPackages.name, input.name));
    await recordAudit(tx, actor, {
      action: 'package.github.channel',
      targetType: 'package',
      targetId: `github:${input.name}`,
      before: { channel: row.channel },
      after: { channel: input.channel },
    });
    return input;
  });
}
