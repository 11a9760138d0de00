'use client';

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
 * Reads from the REST API with the session cookie; errors become ApiError with the server's typed
 * code. Writes go through server actions (components/use-operation.ts), never through here.
 */
export async function api<T = unknown>(path: string, init: { signal?: AbortSignal } = {}): Promise<T> {
  const res = await fetch(path, { method: 'GET', signal: init.signal, credentials: 'same-origin' });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const e = data?.error;
    throw new ApiError(res.status, e?.code ?? `http_${res.status}`, e?.message ?? `Request failed (${res.status})`, e?.issues ?? [], e?.details, e?.hint);
  }
  return data as T;
}

/** Puts server-side field issues onto a react-hook-form form. */
export function applyIssues(err: unknown, setError: (name: never, e: { message: string }) => void): boolean {
  if (!(err instanceof ApiError) || !err.issues.length) return false;
  for (const i of err.issues) setError(i.path as never, { message: i.message });
  return true;
}
