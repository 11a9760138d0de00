import { api } from '@/lib/api/contracts';
import { setupFirstOwner, systemActor, userCount } from '@/lib/auth';
import { handle, requestMeta } from '@/lib/http/handler';

export const GET = handle(api.setupStatus, async ({ services }) => ({ needed: (await userCount(services.database.db)) === 0 }));

export const POST = handle(api.setup, async ({ services, body, req }) =>
  setupFirstOwner(services.database.db, body, { ...systemActor, ...requestMeta(req) }),
);
