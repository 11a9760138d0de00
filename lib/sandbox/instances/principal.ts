// Whose a sandbox is. Every sandbox is started for one principal — an agent (its execs) or a
// person (their terminal and exec box) — and carries it as a label. Another principal reaches it
// only by an explicit choice to attach ("shared"), and then without their personal variables.
import type { Actor } from '../../auth/actor';
import { AppError } from '../../core/errors';

export const PRINCIPAL_LABEL = 'skilldock.principal';

export type Principal = `agent:${string}` | `user:${string}` | 'system';

export const agentPrincipal = (agentId: string): Principal => `agent:${agentId}`;

/** The principal a person (or their API token) acts as; the system acts as itself. */
export function personPrincipal(actor: Actor): Principal {
  return actor.userId ? `user:${actor.userId}` : 'system';
}

/** The principal a sandbox's labels name; null for a sandbox started before principals were recorded. */
export function principalOf(labels: Record<string, string>): Principal | null {
  const p = labels[PRINCIPAL_LABEL];
  return p && (p === 'system' || /^(agent|user):[A-Za-z0-9_.@-]{1,128}$/.test(p)) ? (p as Principal) : null;
}

/** Words for people: "agent a1", "user 7f3a09c2…", "an unknown owner …". Shared with the console. */
export function describePrincipal(p: Principal | null): string {
  if (!p) return 'an unknown owner (started before sandboxes had owners)';
  if (p === 'system') return 'Skilldock itself';
  const [kind, id] = [p.slice(0, p.indexOf(':')), p.slice(p.indexOf(':') + 1)];
  return `${kind} ${kind === 'user' && id.length > 12 ? `${id.slice(0, 8)}…` : id}`;
}

export interface Access {
  /** The sandbox is the actor's own. */
  own: boolean;
  principal: Principal | null;
}

/** Whether the actor may use the sandbox: their own always; another's only when `shared` is chosen. */
export function checkAccess(actor: Actor, labels: Record<string, string>, shared: boolean | undefined): Access {
  const principal = principalOf(labels);
  const own = principal !== null && principal === personPrincipal(actor);
  if (!own && !shared) {
    throw new AppError('conflict', `This sandbox belongs to ${describePrincipal(principal)}, not to you.`, {
      hint: 'Start a sandbox of your own, or attach to this one on purpose (shared: true): its files and programs are then untrusted, and your personal variables are not given to it.',
      details: { reason: 'shared_sandbox', principal },
    });
  }
  return { own, principal };
}
