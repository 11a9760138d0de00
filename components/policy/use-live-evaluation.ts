'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { EvaluateInput } from '@/lib/api/policy-schemas';
import { type EvaluationView, evaluate } from './queries';

const DEBOUNCE_MS = 250;

/**
 * Evaluates as the input changes (debounced) or at once with `now()`. Only the newest request's
 * answer is kept, so a slow early answer never replaces a later one; the last result stays shown
 * (marked stale) while the next is on its way.
 */
export function useLiveEvaluation(input: EvaluateInput | null) {
  const [result, setResult] = useState<{ key: string; data: EvaluationView } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const seq = useRef(0);
  const key = input ? JSON.stringify(input) : '';

  const run = useCallback((k: string) => {
    if (!k) return;
    const n = ++seq.current;
    setPending(true);
    evaluate(JSON.parse(k) as EvaluateInput).then(
      (data) => {
        if (n !== seq.current) return;
        setResult({ key: k, data });
        setError(null);
        setPending(false);
      },
      (e: unknown) => {
        if (n !== seq.current) return;
        setError(e);
        setPending(false);
      },
    );
  }, []);

  useEffect(() => {
    if (!key) {
      seq.current++;
      setResult(null);
      setError(null);
      setPending(false);
      return;
    }
    const t = setTimeout(() => run(key), DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [key, run]);

  return { result: result?.data ?? null, stale: !!result && result.key !== key, error, pending, now: () => run(key) };
}
