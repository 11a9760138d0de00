'use client';

import { useQueryClient } from '@tanstack/react-query';
import type { ActionResult } from '@/lib/http/action-error';
import type { ApiError } from '../api';
import { useOperation } from '../use-operation';
import { toastSaved } from './saved-toast';

/**
 * Saving a settings form through its server action: on success the stored settings in the query cache become
 * the answer, the form is reset to them, dependent queries are refetched, and a toast names what changed.
 */
export function useSettingsSave<I, S, V extends object>(
  action: (input: I) => Promise<ActionResult<S>>,
  opts: {
    /** The save's variables (the patch) as the action's input. */
    input: (patch: V) => I;
    queryKey: readonly unknown[];
    /** Puts the form back to what is now stored. */
    reset: (next: S) => void;
    onError: (e: ApiError) => void;
    /** Queries whose answers depend on these settings. */
    invalidate?: readonly unknown[];
    saved: { what: string; labels: Record<string, string>; after?: string };
  },
) {
  const qc = useQueryClient();
  return useOperation(action, {
    input: opts.input,
    onSuccess: (next, patch) => {
      qc.setQueryData(opts.queryKey, next);
      opts.reset(next);
      if (opts.invalidate) void qc.invalidateQueries({ queryKey: opts.invalidate });
      toastSaved(opts.saved.what, patch, opts.saved.labels, opts.saved.after);
    },
    onError: opts.onError,
  });
}
