import type { z } from 'zod';
import type { Permission } from '../auth/permissions';

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** One API operation: the wrapper enforces it and the OpenAPI document is generated from it. */
export interface RouteContract {
  method: Method;
  /** OpenAPI-style path, e.g. /api/v1/jobs/{id}. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  /** Named permission required; null only for routes outside /api/v1 that work before sign-in. */
  permission: Permission | null;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  response?: z.ZodType;
  /** HTTP status on success (200 unless stated). */
  status?: 200 | 201 | 202 | 204;
  /** Media type of a non-JSON success response. */
  produces?: 'text/event-stream' | 'text/plain' | 'application/octet-stream' | 'application/x-asciicast';
  /** A raw (non-JSON) request body the route streams itself, e.g. an archive upload. */
  consumes?: 'application/octet-stream';
  /** Largest accepted body in bytes; defaults to SKILLDOCK_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /**
   * A per-caller limit for costly work a low role can trigger, enforced by both doors: over it the
   * call is refused with 429 rate_limited and Retry-After. `when` limits only the calls it matches.
   */
  rateLimit?: RateLimit;
  /**
   * A gateway route of one agent, named by the `{id}` path parameter: the only routes an
   * agent-scoped API token reaches, and only for its own agents.
   */
  agentGateway?: true;
}

export interface RateLimit {
  /** Counted per user (a token counts for its user; a call without a user, per client address). */
  key: 'user';
  max: number;
  perSeconds: number;
  when?: (input: { query: unknown; body: unknown; params: unknown }) => boolean;
  /** Callers holding this permission are not limited: they can already start heavier work (installs, imports). */
  unless?: Permission;
}

export const defineContract = <C extends RouteContract>(c: C): C => c;
