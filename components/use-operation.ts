'use client';

import { type UseMutationOptions, useMutation } from '@tanstack/react-query';
import { errorMessage } from '@/components/error-message';
import type { ActionResult } from '@/lib/http/action-error';
import { ApiError } from './api';

type Action<I, O> = (input: I) => Promise<ActionResult<O>>;

/**
 * Runs a server action and returns its data; a failure becomes an ApiError with the server's
 * typed code, status and field issues (the same error a REST call gives), for applyIssues.
 */
export async function callAction<I, O>(fn: Action<I, O>, input: I): Promise<O> {
  let r: ActionResult<O> | undefined;
  try {
    r = await fn(input);
  } catch (e) {
    throw new ApiError(0, 'network', `The server could not be reached (${errorMessage(e)}); try again.`);
  }
  if (!r) throw new ApiError(500, 'internal', 'The server gave no answer; try again.');
  if (r.serverError) {
    const e = r.serverError;
    throw new ApiError(e.status, e.code, e.message, e.issues ?? [], e.details, e.hint);
  }
  if (r.validationErrors) throw new ApiError(400, 'validation', 'The request was not in the expected shape.');
  return r.data as O;
}

/**
 * A server action inside react-query's useMutation: `input` turns the mutation's variables into the
 * action's input (an `input` without a parameter makes a mutation called with no variables).
 */
export function useOperation<I, O, V = void>(fn: Action<I, O>, opts: Omit<UseMutationOptions<O, ApiError, V>, 'mutationFn'> & { input?: (v: V) => I } = {}) {
  const { input, ...rest } = opts;
  return useMutation<O, ApiError, V>({ ...rest, mutationFn: (v) => callAction(fn, input ? input(v) : (v as unknown as I)) });
}
