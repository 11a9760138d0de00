/**
 * What a server action answers with instead of data when it fails: the same fields as the REST
 * error body, plus the HTTP status the route would have used. Schema-only: the browser imports it.
 */
export interface ActionError {
  code: string;
  message: string;
  status: number;
  issues?: { path: string; message: string }[];
  details?: Record<string, unknown>;
  hint?: string;
}

/** A server action's result: data, or the error (never both). */
export type ActionResult<T> =
  | { data: T; serverError?: undefined; validationErrors?: undefined }
  | { data?: undefined; serverError?: ActionError; validationErrors?: unknown };
