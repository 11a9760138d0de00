import { requirePermission, type Actor } from '../auth/actor';
import { AppError, isAppError } from '../core/errors';
import { randomToken } from '../core/ids';
import { logger } from '../core/logger';
import { getServices, type Services } from '../services';
import { authenticate, CLIENT_IP_HEADER, originAllowed } from './authenticate';
import type { RouteContract } from './contract';
import { parseWith, queryObject, readJsonBody } from './request';

type Infer<S> = S extends { _output: infer O } ? O : undefined;

export interface HandlerContext<C extends RouteContract> {
  req: Request;
  services: Services;
  /** Null only on routes whose contract has permission null. */
  actor: C['permission'] extends null ? Actor | null : Actor;
  body: Infer<C['body']>;
  query: Infer<C['query']>;
  params: Infer<C['params']>;
}

type RouteArgs = { params?: Promise<Record<string, string | string[]>> };

export function errorResponse(e: unknown): Response {
  if (isAppError(e)) {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
    const retry = e.details?.retryAfterSeconds;
    if (typeof retry === 'number') headers['retry-after'] = String(retry);
    if (e.code === 'unauthenticated') headers['www-authenticate'] = 'Bearer realm="skilldock"';
    return new Response(JSON.stringify(e.toJSON()), { status: e.status, headers });
  }
  const ref = randomToken(6);
  logger.error('unhandled error in request', { ref, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  return Response.json({ error: { code: 'internal', message: `Something went wrong on the server (reference ${ref}); the details are in the server log.` } }, { status: 500 });
}

export function requestMeta(req: Request) {
  return {
    ip: req.headers.get(CLIENT_IP_HEADER),
    userAgent: req.headers.get('user-agent'),
  };
}

/**
 * The one edge wrapper: authenticate → authorize (named permission) → parse (zod, unknown fields
 * rejected, body capped) → call the domain → map AppError codes to HTTP statuses.
 */
export function handle<C extends RouteContract>(contract: C, impl: (ctx: HandlerContext<C>) => Promise<unknown>) {
  return async function routeHandler(req: Request, args: RouteArgs = {}): Promise<Response> {
    try {
      const services = await getServices();
      const meta = requestMeta(req);
      let actor: Actor | null = null;
      if (contract.permission) {
        const a = await authenticate(services, { authorization: req.headers.get('authorization'), cookie: req.headers.get('cookie'), ...meta });
        if (a.via === 'session' && contract.method !== 'GET') {
          const ok = originAllowed(req.headers.get('origin'), req.headers.get('host'), services.config.allowedOrigins, req.headers.get('sec-fetch-site'));
          if (!ok) throw new AppError('forbidden', 'Cross-site request refused: the Origin header does not match this console.');
        }
        requirePermission(a, contract.permission);
        actor = a;
      }
      const url = new URL(req.url);
      const params = contract.params ? parseWith(contract.params, (await args.params) ?? {}, 'path parameters') : undefined;
      const query = contract.query ? parseWith(contract.query, queryObject(url), 'query parameters') : undefined;
      let body: unknown;
      if (contract.body) {
        const raw = await readJsonBody(req, contract.maxBodyBytes ?? services.config.SKILLDOCK_MAX_BODY_BYTES);
        body = parseWith(contract.body, raw, 'request body');
      } else if (contract.method !== 'GET' && req.body && !contract.consumes) {
        const raw = await readJsonBody(req, 4096);
        if (raw && typeof raw === 'object' && Object.keys(raw).length) throw new AppError('validation', 'This operation takes no request body.');
      }
      const out = await impl({ req, services, actor, body, query, params } as HandlerContext<C>);
      if (out instanceof Response) return out;
      const status = contract.status ?? 200;
      if (status === 204) return new Response(null, { status });
      return Response.json(out ?? null, { status, headers: { 'cache-control': 'no-store' } });
    } catch (e) {
      return errorResponse(e);
    }
  };
}
