import 'server-only';
import { type Actor, requirePermission } from '../auth/actor';
import { AppError } from '../core/errors';
import { getServices, type Services } from '../services';
import { authenticate, CLIENT_IP_HEADER, originAllowed } from './authenticate';
import type { RouteContract } from './contract';
import { errorResponse } from './handler';
import { type CallMeta, invoke } from './invoke';
import type { Operation } from './operation';
import { queryObject, readJsonBody } from './request';
import { logRequest } from './request-log';
import type { RouteRequest } from './route-request';

type RouteArgs = { params?: Promise<Record<string, string | string[]>> };

export const requestMeta = (req: RouteRequest): CallMeta => ({
  ip: req.headers.get(CLIENT_IP_HEADER),
  userAgent: req.headers.get('user-agent'),
  origin: req.headers.get('origin'),
});

/** Bearer token or session cookie; cookie-authenticated writes must come from this console's origin. */
async function authorizeRequest(services: Services, c: RouteContract, req: RouteRequest, meta: CallMeta): Promise<Actor | null> {
  if (!c.permission) return null;
  const a = await authenticate(services, { authorization: req.headers.get('authorization'), cookie: req.headers.get('cookie'), ...meta });
  if (a.via === 'session' && c.method !== 'GET') {
    const ok = originAllowed(req.headers.get('origin'), req.headers.get('host'), services.config.allowedOrigins, req.headers.get('sec-fetch-site'));
    if (!ok) throw new AppError('forbidden', 'Cross-site request refused: the Origin header does not match this console.');
  }
  requirePermission(a, c.permission);
  return a;
}

/** An agent-scoped token reaches the gateway routes of its own agents only. */
function assertAgentScope(actor: Actor | null, c: RouteContract, params: Record<string, string | string[]>): void {
  const scope = actor?.agentScope;
  if (!scope) return;
  const id = params.id;
  if (!c.agentGateway) throw new AppError('forbidden', "This API token is scoped to agents: it reaches only those agents' gateway routes.");
  if (typeof id !== 'string' || !scope.includes(id)) throw new AppError('forbidden', `This API token is not scoped to agent "${String(id)}".`);
}

async function readBody(c: RouteContract, req: RouteRequest, services: Services): Promise<unknown> {
  if (c.body) return readJsonBody(req, c.maxBodyBytes ?? services.config.SKILLDOCK_MAX_BODY_BYTES);
  if (c.method !== 'GET' && req.body && !c.consumes) return readJsonBody(req, 4096);
  return undefined;
}

/**
 * The REST door of an operation: authenticate → authorize (named permission) → parse (zod, unknown
 * fields rejected, body capped) → the operation → the contract's status, errors mapped to HTTP.
 */
export function route<C extends RouteContract>(op: Operation<C>) {
  const c = op.contract;
  return async function routeHandler(req: RouteRequest, args: RouteArgs = {}): Promise<Response> {
    const started = performance.now();
    let services: Services | null = null;
    let actor: Actor | null = null;
    const answered = (res: Response) => {
      if (services) logRequest(services.config.SKILLDOCK_REQUEST_LOG, req, res.status, performance.now() - started, actor);
      return res;
    };
    try {
      services = await getServices();
      const meta = requestMeta(req);
      actor = await authorizeRequest(services, c, req, meta);
      const params = (await args.params) ?? {};
      assertAgentScope(actor, c, params);
      const query = req.url.includes('?') ? queryObject(new URL(req.url)) : {};
      const raw = { params, query, body: await readBody(c, req, services) };
      const out = await invoke(op as unknown as Operation, { services, actor, meta, raw, req });
      if ('response' in out) return answered(out.response);
      const status = c.status ?? 200;
      if (status === 204) return answered(new Response(null, { status }));
      return answered(new Response(out.body, { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } }));
    } catch (e) {
      return answered(errorResponse(e));
    }
  };
}
