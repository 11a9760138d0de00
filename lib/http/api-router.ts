import 'server-only';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../core/errors';
import { logger } from '../core/logger';
import { errorResponse } from './handler';
import { routeRequestOf, sendWebResponse } from './node-web';
import type { Operation } from './operation';
import { route } from './route';
import { RouteTable } from './route-table';

type Handler = ReturnType<typeof route>;
// process-wide: a constant table, never written
const METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH']);

/**
 * Serves the REST contract routes straight from the operations, ahead of the page framework: the
 * same REST door (`route(op)`) the route files export, without Next's request pipeline.
 * `serve` answers and returns true for a path that is a contract route (a method the route lacks
 * 405, OPTIONS 204 with Allow, HEAD as GET without the body, a parameter that is not valid
 * percent-encoding 400, where Next answered 500); anything else (pages, an unknown path, a trailing
 * slash) returns false and is left to Next, which answers as before. The app/api/v1 route files
 * export the same `route(op)` for the integration tests that call handlers in-process; in the
 * production server Next no longer reaches them.
 */
export function apiRouter(operations: Iterable<Operation>) {
  const table = new RouteTable<Handler>();
  for (const op of operations) table.add(op.contract.method, op.contract.path, route(op));

  function serve(req: IncomingMessage, res: ServerResponse): boolean {
    const method = req.method ?? 'GET';
    if (!METHODS.has(method)) return false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const m = table.match(method, q < 0 ? url : url.slice(0, q));
    if (m.kind === 'none') return false;
    if (m.kind === 'bad-param') {
      const e = new AppError('validation', `The path parameter "${m.name}" is not valid percent-encoding.`);
      void sendWebResponse(res, errorResponse(e));
      return true;
    }
    if (m.kind === 'method') {
      // As Next answers a method its route file does not export.
      if (method === 'OPTIONS') res.writeHead(204, { allow: m.allow }).end();
      else res.writeHead(405).end();
      return true;
    }
    const params = Promise.resolve(m.params);
    void run(m.handler, req, res, method, params);
    return true;
  }

  return { serve, match: (method: string, pathname: string) => table.match(method, pathname) };
}

async function run(handler: Handler, req: IncomingMessage, res: ServerResponse, method: string, params: Promise<Record<string, string>>) {
  try {
    const response = await handler(routeRequestOf(req, res), { params });
    await sendWebResponse(res, response, method === 'HEAD');
  } catch (e) {
    // route() maps every error to a response; this is the adapter failing (a malformed header value).
    logger.error('API router failed to answer', { method, path: req.url?.split('?')[0], error: e instanceof Error ? e.message : String(e) });
    if (!res.headersSent)
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"code":"internal","message":"The server could not answer."}}');
    else res.destroy();
  }
}
