import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';

export const GET = handle(api.me, async ({ actor }) => ({
  kind: actor.kind,
  userId: actor.userId,
  tokenId: actor.tokenId,
  email: actor.email,
  role: actor.role,
  permissions: [...actor.permissions].sort(),
}));
