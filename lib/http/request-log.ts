// One log line per API request an operator asked for (SKILLDOCK_REQUEST_LOG): method, path, status,
// duration and who. Never the query string or the body: they may carry secrets.
import type { Actor } from '../auth/actor';
import { logger } from '../core/logger';
import type { RouteRequest } from './route-request';

export type RequestLog = 'off' | 'writes' | 'all';

// process-wide: a constant table, never written
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request gets a line: `writes` logs every write and every refused or failed request. */
export function shouldLog(mode: RequestLog, method: string, status: number): boolean {
  if (mode === 'off') return false;
  return mode === 'all' || !READS.has(method) || status >= 400;
}

export function logRequest(mode: RequestLog, req: Pick<RouteRequest, 'method' | 'url'>, status: number, ms: number, actor: Actor | null): void {
  if (!shouldLog(mode, req.method, status)) return;
  const q = req.url.indexOf('?');
  const full = q < 0 ? req.url : req.url.slice(0, q);
  const path = full.startsWith('http') ? new URL(full).pathname : full;
  const fields = { method: req.method, path, status, ms: Math.round(ms), by: actor?.label ?? null };
  if (status >= 500) logger.warn('request', fields);
  else logger.info('request', fields);
}
