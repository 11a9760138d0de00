import { type ErrorBody, isAppError } from '../core/errors';

/** A failing job may still report what it did (Update All's per-package outcomes, a skill's findings): details.jobResult. */
export function partialResult(e: unknown): unknown {
  return isAppError(e) ? (e.details as { jobResult?: unknown } | undefined)?.jobResult : undefined;
}

/** The failed job's error in the same shape the API answers with (the partial result is stored apart). */
export function failureBody(e: unknown): ErrorBody {
  if (!isAppError(e)) return { code: 'internal', message: e instanceof Error ? e.message : String(e) };
  const { details, ...body } = e.body();
  const { jobResult: _, ...rest } = details ?? {};
  return Object.keys(rest).length ? { ...body, details: rest } : body;
}
