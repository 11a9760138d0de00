import 'server-only';
import { isAppError } from '../core/errors';
import { randomToken } from '../core/ids';
import { describeError, logger } from '../core/logger';

/** The one mapping of errors to HTTP: an AppError's status and JSON envelope; anything else a 500 with a reference. */
export function errorResponse(e: unknown): Response {
  if (isAppError(e)) {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
    const retry = e.details?.retryAfterSeconds;
    if (typeof retry === 'number') headers['retry-after'] = String(retry);
    if (e.code === 'unauthenticated') headers['www-authenticate'] = 'Bearer realm="skilldock"';
    return new Response(JSON.stringify(e.toJSON()), { status: e.status, headers });
  }
  const ref = randomToken(6);
  logger.error('unhandled error in request', { ref, error: describeError(e) });
  return Response.json(
    { error: { code: 'internal', message: `Something went wrong on the server (reference ${ref}); the details are in the server log.` } },
    { status: 500 },
  );
}
