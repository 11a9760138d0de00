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

// process-wide: the one system actor, a constant (its permission set is never written)
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

/**
 * The gateway's exec runs as the agent, so the caller must be that agent: an API token scoped to it.
 * A person (a session or an unscoped token) never execs inside an agent's sandbox as the agent.
 */
export function requireAgentPrincipal(actor: Actor, agentId: string): void {
  if (actor.agentScope?.includes(agentId)) return;
  throw new AppError(
    'forbidden',
    `Commands run as agent "${agentId}" only with an API token scoped to it; a person's session or token does not exec as an agent.`,
    {
      hint: "Use the agent's own token (an admin creates one under API tokens, scoped to the agent), or test the command with the policy tester, which runs nothing.",
      details: { agentId },
    },
  );
}

/** Commands in an exec log are shown to holders of policy.commands and to the agent itself. */
export function canReadCommands(actor: Actor, agentId: string): boolean {
  return can(actor, 'policy.commands') || Boolean(actor.agentScope?.includes(agentId));
}
