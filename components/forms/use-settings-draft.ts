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

type KeysOf<F, V> = { [K in keyof F]: F[K] extends V ? K : never }[keyof F];

/**
 * Binds a draft's fields to TextField/NumberField/ListField (`text`: value, onChange, error) and to a
 * CheckField (`check`: checked, onChange); `set` for a value set by other means.
 */
export function draftFields<F extends object>(form: F, set: <K extends keyof F>(k: K, v: F[K]) => void, errors: Record<string, string>) {
  return {
    set,
    text: <K extends KeysOf<F, string>>(k: K) => ({
      value: form[k] as string,
      onChange: (e: { target: { value: string } }) => set(k, e.target.value as F[K]),
      error: errors[k as string],
    }),
    check: <K extends KeysOf<F, boolean>>(k: K) => ({
      checked: form[k] as boolean,
      onChange: (e: { target: { checked: boolean } }) => set(k, e.target.checked as F[K]),
    }),
  };
}
