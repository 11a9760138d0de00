import 'server-only';
import type { z } from 'zod';
import { type Actor, can } from '../auth/actor';
import { AppError } from '../core/errors';
import { logger } from '../core/logger';
import { JsonText } from '../core/read-cache';
import type { Services } from '../services';
import type { RouteContract } from './contract';
import type { CallMeta, Operation, OperationContext } from './operation';
import { parseWith, zodIssues } from './request';
import type { RouteRequest } from './route-request';

/** The unparsed parts of a call, as either door received them. */
export interface RawInput {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

export type { CallMeta };

/** Parses each part with the contract's schema; issues are named as the REST API names them (no part prefix). */
export function parseInput(c: RouteContract, raw: RawInput) {
  const params = c.params ? parseWith(c.params, raw.params ?? {}, 'path parameters') : undefined;
  const query = c.query ? parseWith(c.query, raw.query ?? {}, 'query parameters') : undefined;
  let body: unknown;
  if (c.body) body = parseWith(c.body, raw.body ?? {}, 'request body');
  else if (raw.body && typeof raw.body === 'object' && Object.keys(raw.body).length) throw new AppError('validation', 'This operation takes no request body.');
  return { params, query, body };
}

/**
 * Responses are checked against the contract in development and tests, where a mismatch is a bug
 * to fail on; production skips the cost. SKILLDOCK_CHECK_OUTPUT=1 turns it on for a production build.
 */
export const outputChecked = () => process.env.NODE_ENV !== 'production' || process.env.SKILLDOCK_CHECK_OUTPUT === '1';

/** An answer serialised once: the route sends the body, the action door and the output check parse it. */
export interface JsonAnswer {
  body: string | Uint8Array<ArrayBuffer>;
  json(): unknown;
}

export function checkOutput(c: RouteContract, json: unknown): void {
  if (!outputChecked() || c.produces || c.status === 204) return;
  const where = `${c.method} ${c.path}`;
  if (!c.response) {
    logger.error('operation answers without a declared response schema', { operation: where });
    throw new Error(`${where} declares no response schema`);
  }
  const r = (c.response as z.ZodType).safeParse(json);
  if (r.success) return;
  const issues = zodIssues(r.error).map((i) => `${i.path}: ${i.message}`);
  logger.error('response does not match its contract', { operation: where, issues: issues.slice(0, 20) });
  throw new Error(`The response of ${where} does not match its contract: ${issues.slice(0, 5).join('; ')}`);
}

/** The contract's per-caller limit; the counters live on the services, so both doors share them. */
export function enforceRateLimit(services: Services, c: RouteContract, actor: Actor | null, meta: CallMeta, input: ReturnType<typeof parseInput>): void {
  const rule = c.rateLimit;
  if (!rule || (rule.when && !rule.when(input))) return;
  if (rule.unless && actor && can(actor, rule.unless)) return;
  const who = actor?.userId ?? actor?.tokenId ?? `ip:${meta.ip ?? 'unknown'}`;
  const waitMs = services.rateLimiter.take(`${c.method} ${c.path}|${who}`, rule);
  if (waitMs === 0) return;
  const seconds = Math.ceil(waitMs / 1000);
  throw new AppError('rate_limited', `This is limited to ${rule.max} calls in ${rule.perSeconds} s per user; try again in ${seconds} s.`, {
    details: { retryAfterSeconds: seconds },
  });
}

export interface Invocation {
  services: Services;
  actor: Actor | null;
  meta: CallMeta;
  raw: RawInput;
  req?: RouteRequest;
}

/**
 * The path both doors share after authorization: parse, run the one implementation, check the
 * answer. Returns a Response untouched (streams, text downloads), otherwise the JSON answer. An
 * implementation may answer with a JsonText it keeps (a cached page), sent without serialising again.
 */
export async function invoke(op: Operation, call: Invocation): Promise<{ response: Response } | JsonAnswer> {
  const input = parseInput(op.contract, call.raw);
  enforceRateLimit(call.services, op.contract, call.actor, call.meta, input);
  const ctx = { services: call.services, actor: call.actor, meta: call.meta, req: call.req, ...input } as OperationContext<RouteContract>;
  const out = await op.run(ctx);
  if (out instanceof Response) return { response: out };
  const body = JsonText.is(out) ? out.body : (JSON.stringify(out) ?? 'null');
  let parsed: { value: unknown } | undefined;
  const json = () => (parsed ??= { value: JSON.parse(JsonText.is(out) ? out.text : (body as string)) }).value;
  if (outputChecked()) checkOutput(op.contract, json());
  return { body, json };
}
