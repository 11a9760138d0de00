// Calling route handlers in integration tests the way a client does: a real user, a real API token,
// a Request through the edge wrapper; and waiting for a job to end.
import { type Actor, type Permission, ROLE_PERMISSIONS, type Role } from '@/lib/auth';
import { createToken } from '@/lib/auth/tokens';
import { createUser } from '@/lib/auth/users';
import { getJob, type JobRow } from '@/lib/jobs';
import type { Services } from '@/lib/services';
import { waitFor } from './services';

/** The system acting with an owner's permissions (what a seed or a migration does). */
export const ownerActor: Actor = {
  kind: 'system',
  userId: null,
  tokenId: null,
  email: 'system',
  role: 'owner',
  permissions: ROLE_PERMISSIONS.owner,
  label: 'system',
  ip: null,
  userAgent: null,
};

/** A user of the given role and an API token of theirs carrying `permissions`; the token's label is `email (token "name")`. */
export async function apiUser(
  services: Services,
  u: { email: string; role: Role; tokenName: string; permissions: Permission[] },
): Promise<{ token: string; actor: Actor }> {
  const db = services.database.db;
  const user = await createUser(db, ownerActor, { email: u.email, name: u.email.split('@')[0], role: u.role, password: 'a long enough password' });
  const actor: Actor = {
    kind: 'user',
    userId: user.id,
    tokenId: null,
    email: user.email,
    role: u.role,
    permissions: ROLE_PERMISSIONS[u.role],
    label: user.email,
    ip: null,
    userAgent: null,
  };
  const token = (await createToken(db, actor, { name: u.tokenName, permissions: u.permissions, expiresInDays: 1 })).token;
  return { token, actor };
}

type Handler = (req: Request) => Promise<Response>;

/** Calls a route handler with a bearer token and a JSON body; returns the status and the parsed body. */
export async function callRoute(handler: Handler, token: string, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
  const res = await handler(
    new Request(`http://localhost${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The job once it has ended (succeeded, failed or canceled). */
export function jobEnd(services: Services, id: string, timeoutMs = 240_000): Promise<JobRow> {
  return waitFor(
    async () => {
      const j = await getJob(services.database, id);
      return ['succeeded', 'failed', 'canceled'].includes(j.state) ? j : null;
    },
    `job ${id} to end`,
    timeoutMs,
  );
}
