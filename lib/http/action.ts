import 'server-only';
import { createSafeActionClient } from 'next-safe-action';
import { z } from 'zod';
import { type Actor, requirePermission } from '../auth/actor';
import { AppError, isAppError } from '../core/errors';
import { randomToken } from '../core/ids';
import { describeError, logger } from '../core/logger';
import { getServices, type Services } from '../services';
import type { ActionError, ActionResult } from './action-error';
import { authenticate, CLIENT_IP_HEADER } from './authenticate';
import type { RouteContract } from './contract';
import { invoke } from './invoke';
import type { Operation, OperationInput, OperationOutput } from './operation';

/** What an action knows of its caller: the request's cookies and where it came from. */
export interface ActionRequest {
  cookie: string | null;
  ip: string | null;
  userAgent: string | null;
  origin?: string | null;
}

export interface ActionSources {
  request: () => Promise<ActionRequest>;
  services: () => Promise<Services>;
}

/** The request headers of the server action being run (Next has already checked its Origin). */
async function nextRequest(): Promise<ActionRequest> {
  const { headers } = await import('next/headers');
  const h = await headers();
  return { cookie: h.get('cookie'), ip: h.get(CLIENT_IP_HEADER), userAgent: h.get('user-agent'), origin: h.get('origin') };
}

export function toActionError(e: unknown): ActionError {
  if (isAppError(e)) return { ...e.toJSON().error, status: e.status };
  const ref = randomToken(6);
  logger.error('unhandled error in server action', { ref, error: describeError(e) });
  return { code: 'internal', message: `Something went wrong on the server (reference ${ref}); the details are in the server log.`, status: 500 };
}

/** The parts of a call; each is parsed by the operation's own schema inside `invoke`, as on the route. */
const envelope = z.strictObject({ params: z.unknown().optional(), query: z.unknown().optional(), body: z.unknown().optional() });
const metadata = z.object({ operation: z.string(), permission: z.string().nullable() });

/**
 * The client chain: base (errors → ActionError) → session (cookie → the same `authenticate`) →
 * permission (from the operation's metadata). Session and services sources are injectable for tests.
 */
export function createActionClient(sources: ActionSources = { request: nextRequest, services: getServices }) {
  return createSafeActionClient({ handleServerError: toActionError, defineMetadataSchema: () => metadata }).use(async ({ next, metadata: m }) => {
    const services = await sources.services();
    const req = await sources.request();
    const meta = { ip: req.ip, userAgent: req.userAgent, origin: req.origin ?? null };
    let actor: Actor | null = null;
    if (m.permission) {
      actor = await authenticate(services, { authorization: null, cookie: req.cookie, ...meta });
      requirePermission(actor, m.permission as Parameters<typeof requirePermission>[1]);
    }
    return next({ ctx: { services, actor, meta } });
  });
}

type ActionClient = ReturnType<typeof createActionClient>;
export type OperationAction<C extends RouteContract> = (input: OperationInput<C>) => Promise<ActionResult<OperationOutput<C>>>;

// process-wide: the request-bound action chain, stateless, built once
let defaultClient: ActionClient | undefined;

/** The server-action door of an operation; `client` defaults to the request-bound chain. */
export function action<C extends RouteContract>(op: Operation<C>, client: ActionClient = (defaultClient ??= createActionClient())): OperationAction<C> {
  if (op.restOnly) throw new AppError('internal', `${op.contract.method} ${op.contract.path} has no server action (it reads the raw request).`);
  const fn = client
    .metadata({ operation: `${op.contract.method} ${op.contract.path}`, permission: op.contract.permission })
    .inputSchema(envelope)
    .action(async ({ parsedInput, ctx }) => {
      const out = await invoke(op as unknown as Operation, { services: ctx.services, actor: ctx.actor, meta: ctx.meta, raw: parsedInput });
      if ('response' in out) throw new AppError('internal', 'This operation answers with a stream and has no server action.');
      return out.json();
    });
  return fn as unknown as OperationAction<C>;
}
