import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { startUpdateAll } from '@/lib/packages';
import { getRuntimeSettings } from '@/lib/settings';

export const POST = handle(api.applyAllUpdates, async ({ services, actor, body }) =>
  startUpdateAll(services.database, actor, body, (await getRuntimeSettings(services.database.db)).updateTtlMinutes),
);
