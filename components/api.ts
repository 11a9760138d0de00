'use client';

import type { z } from 'zod';
import type { RouteContract } from '@/lib/http/contract';

export interface FieldIssue {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: FieldIssue[] = [],
    readonly details?: Record<string, unknown>,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * The raw reader behind get(): a GET with the session cookie; errors become ApiError with the
 * server's typed code. Not exported, so no read can pair a hand-built URL with a hand-written type
 * (components/raw-reads.test.ts holds the console to that). Writes go through server actions
 * (components/use-operation.ts), never through here.
 */
async function readJson(path: string, init: { signal?: AbortSignal }): Promise<unknown> {
  const res = await fetch(path, { method: 'GET', signal: init.signal, credentials: 'same-origin' });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const e = data?.error;
    throw new ApiError(res.status, e?.code ?? `http_${res.status}`, e?.message ?? `Request failed (${res.status})`, e?.issues ?? [], e?.details, e?.hint);
  }
  return data;
}

/** Puts server-side field issues onto a react-hook-form form. */
export function applyIssues(err: unknown, setError: (name: never, e: { message: string }) => void): boolean {
  if (!(err instanceof ApiError) || !err.issues.length) return false;
  for (const i of err.issues) setError(i.path as never, { message: i.message });
  return true;
}

type GetContract = Pick<RouteContract, 'method' | 'path' | 'params' | 'query' | 'response'> & { method: 'GET'; response: z.ZodType };
type ParamsOf<C extends GetContract> = C['params'] extends z.ZodType ? z.input<C['params']> : undefined;
/** A query value as the URL carries it; absent, null and empty values are left out. */
type QueryValue = string | number | boolean | null | undefined;
type QueryOf<C extends GetContract> = C['query'] extends z.ZodType ? { [K in keyof z.input<C['query']>]?: QueryValue } : undefined;

/** The contract's path with each `{name}` filled in from `params`, encoded. */
export function pathOf(path: string, params?: Record<string, unknown>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null || v === '') throw new Error(`${path} needs its ${name}`);
    return encodeURIComponent(String(v));
  });
}

/** `path?query` from a contract and its inputs: the query's absent, null and empty values left out. */
export function urlOf(path: string, params?: Record<string, unknown>, query?: Record<string, QueryValue>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return s ? `${pathOf(path, params)}?${s}` : pathOf(path, params);
}

/**
 * A typed read: the URL comes from the operation's contract (its path, params and query), the answer
 * is typed by the contract's response schema, so a read can no longer pair a URL with the wrong type.
 */
export function get<C extends GetContract>(
  contract: C,
  opts: { params?: ParamsOf<C>; query?: QueryOf<C>; signal?: AbortSignal } = {},
): Promise<z.output<C['response']>> {
  const url = urlOf(contract.path, opts.params as Record<string, unknown> | undefined, opts.query as Record<string, QueryValue> | undefined);
  return readJson(url, { signal: opts.signal }) as Promise<z.output<C['response']>>;
}
