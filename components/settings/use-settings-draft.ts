'use client';

import { useEffect, useState } from 'react';
import { ApiError } from '../api';

/**
 * The edited copy of stored settings: filled once they load, with the server's field issues of the last save,
 * each cleared as soon as its field is edited.
 */
export function useSettingsDraft<S, F extends object>(stored: S | undefined, toForm: (s: S) => F) {
  const [form, setForm] = useState<F | null>(null);
  const [serverIssues, setServerIssues] = useState<Record<string, string>>({});
  useEffect(() => {
    if (stored && !form) setForm(toForm(stored));
  }, [stored, form, toForm]);

  const set = <K extends keyof F>(k: K, v: F[K]) => {
    setForm((f) => (f ? { ...f, [k]: v } : f));
    setServerIssues(({ [k as string]: _drop, ...rest }) => rest);
  };
  /** Back to `s` (what is stored), without server issues. */
  const reset = (s: S) => {
    setForm(toForm(s));
    setServerIssues({});
  };
  const onSaveError = (e: unknown) => {
    if (e instanceof ApiError && e.issues.length) setServerIssues(Object.fromEntries(e.issues.map((i) => [i.path.split('.')[0], i.message])));
  };
  return { form, serverIssues, set, reset, onSaveError };
}
