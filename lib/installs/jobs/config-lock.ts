// Every job that builds a config's image holds the config's advisory lock for the whole build, so
// two builds never start from the same parent and one of them never loses the other's skills.
import { lockKeyOf } from '../../core/lock-key';
import type { JobContext } from '../../jobs/types';

export const configImageLockKey = (configId: string): number => lockKeyOf(`sandbox-image:${configId}`);

export async function withConfigImageLock<T>(ctx: JobContext<unknown>, configId: string, fn: () => Promise<T>): Promise<T> {
  ctx.log(`Waiting for the image lock of sandbox config ${configId}`);
  return ctx.database.withLock(configImageLockKey(configId), async () => {
    // A job canceled while it waited must not start once the lock is free.
    if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('cancel');
    return fn();
  });
}
