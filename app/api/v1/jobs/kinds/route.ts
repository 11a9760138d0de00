import { api } from '@/lib/api/contracts';
import { minimumRole } from '@/lib/auth';
import { handle } from '@/lib/http/handler';
import { listJobKinds } from '@/lib/jobs';

export const GET = handle(api.jobKinds, async ({ actor }) => ({
  items: listJobKinds().map((k) => ({
    kind: k.kind,
    startable: Boolean(k.startPermission),
    startPermission: k.startPermission ?? null,
    requiredRole: k.startPermission ? minimumRole(k.startPermission) : null,
    canStart: Boolean(k.startPermission && actor.permissions.has(k.startPermission)),
    concurrency: k.concurrency,
    maxAttempts: k.maxAttempts,
    resumable: k.resumable,
  })),
}));
