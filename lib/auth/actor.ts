import { AppError } from '../core/errors';
import { minimumRole, type Permission, type Role } from './permissions';

/** Who is acting: a signed-in user, an API token on behalf of its creator, or the system itself. */
export interface Actor {
  kind: 'user' | 'token' | 'system';
  userId: string | null;
  tokenId: string | null;
  email: string;
  role: Role;
  permissions: ReadonlySet<Permission>;
  /** Frozen into audit rows and job rows. */
  label: string;
  ip: string | null;
  userAgent: string | null;
  /** An agent-scoped API token: the agents whose gateway routes it may call, and nothing else. */
  agentScope?: readonly string[] | null;
}

export function can(actor: Actor, permission: Permission): boolean {
  return actor.permissions.has(permission);
}

export function requirePermission(actor: Actor, permission: Permission): void {
  if (can(actor, permission)) return;
  const why =
    actor.kind === 'token'
      ? `This API token does not carry the "${permission}" permission.`
      : `Your role (${actor.role}) cannot do this; it needs the ${minimumRole(permission)} role ("${permission}").`;
  throw new AppError('forbidden', why, { details: { permission, requiredRole: minimumRole(permission) } });
}

export const systemActor: Actor = {
  kind: 'system',
  userId: null,
  tokenId: null,
  email: 'system',
  role: 'owner',
  permissions: new Set(),
  label: 'system',
  ip: null,
  userAgent: null,
};
