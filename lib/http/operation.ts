import type { z } from 'zod';
import type { Actor } from '../auth/actor';
import type { Services } from '../services';
import type { RouteContract } from './contract';
import type { RouteRequest } from './route-request';

/** Where a call came from, whichever door it used. */
export interface CallMeta {
  ip: string | null;
  userAgent: string | null;
  /** The Origin header the call came with (absent on most non-browser calls). */
  origin?: string | null;
}

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What an operation's implementation receives, whichever door (route or server action) it came through. */
export interface OperationContext<C extends RouteContract> {
  services: Services;
  /** Null only on operations whose contract has permission null. */
  actor: C['permission'] extends null ? Actor | null : Actor;
  body: Infer<C['body']>;
  query: Infer<C['query']>;
  params: Infer<C['params']>;
  /** Where the call came from, for audit rows of operations that run before sign-in. */
  meta: CallMeta;
  /** The HTTP request; only REST-only operations (streams, raw uploads, text downloads) may rely on it. */
  req?: RouteRequest;
}

/** The JSON an operation answers with, as the client receives it (dates are ISO strings). */
export type OperationOutput<C extends RouteContract> = C['response'] extends z.ZodType ? z.output<C['response']> : null;

/** The input a server action takes: the same parts a REST call sends, each parsed by the contract's schema. */
export type OperationInput<C extends RouteContract> = (C['params'] extends z.ZodType ? { params: z.input<C['params']> } : { params?: undefined }) &
  (C['query'] extends z.ZodType ? { query?: z.input<C['query']> } : { query?: undefined }) &
  (C['body'] extends z.ZodType ? { body: z.input<C['body']> } : { body?: undefined });

export interface Operation<C extends RouteContract = RouteContract> {
  contract: C;
  /** The one implementation behind both doors; audit records are written here, never by the door. */
  run: (ctx: OperationContext<C>) => Promise<unknown>;
  /** The operation streams or reads the raw request: it has a route and no server action. */
  restOnly?: boolean;
}

export function defineOperation<C extends RouteContract>(
  contract: C,
  run: (ctx: OperationContext<C>) => Promise<unknown>,
  opts: { restOnly?: boolean } = {},
): Operation<C> {
  return { contract, run, ...(opts.restOnly ? { restOnly: true } : {}) };
}
