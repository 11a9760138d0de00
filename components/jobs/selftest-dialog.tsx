'use client';

import { useId, useMemo, useState } from 'react';
import type { z } from 'zod';
import { selftestParams } from '@/lib/jobs/builtin/selftest-params';
import { ApiError } from '../api';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { Field, Input } from '../ui/input';
import { ErrorNote } from '../ui/misc';
import { formatCount, formatDuration } from './format';
import { useStartJob } from './use-start-job';

type Values = { lines: string; ratePerSecond: string };
type Key = keyof Values;

const toNumber = (s: string) => (s.trim() === '' ? Number.NaN : Number(s.trim()));

/** Turns the kind's zod issues into messages a person can act on. */
function message(issue: z.core.$ZodIssue): string {
  if (issue.code === 'too_small') return `Must be at least ${formatCount(Number(issue.minimum))}.`;
  if (issue.code === 'too_big') return `Must be at most ${formatCount(Number(issue.maximum))}.`;
  if (issue.code === 'invalid_type') return 'Enter a whole number.';
  return issue.message;
}

/** Validates as you type with the same schema the server applies to this kind's params. */
function validate(v: Values): { data?: z.infer<typeof selftestParams>; errors: Partial<Record<Key, string>> } {
  const r = selftestParams.safeParse({ lines: toNumber(v.lines), ratePerSecond: toNumber(v.ratePerSecond) });
  if (r.success) return { data: r.data, errors: {} };
  const errors: Partial<Record<Key, string>> = {};
  for (const i of r.error.issues) {
    const k = i.path[0] as Key;
    errors[k] ??= message(i);
  }
  return { errors };
}

export function SelftestDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const id = useId();
  const [values, setValues] = useState<Values>({ lines: '1000', ratePerSecond: '0' });
  const [touched, setTouched] = useState<Partial<Record<Key, boolean>>>({});
  const start = useStartJob();
  const { data, errors } = useMemo(() => validate(values), [values]);

  const serverIssue = (k: Key) => (start.error instanceof ApiError ? start.error.issues.find((i) => i.path === `params.${k}`)?.message : undefined);
  const shown = (k: Key) => (touched[k] ? errors[k] : undefined) ?? serverIssue(k);
  const set = (k: Key) => (e: React.ChangeEvent<HTMLInputElement>) => {
    setValues((v) => ({ ...v, [k]: e.target.value }));
    setTouched((t) => ({ ...t, [k]: true }));
    if (start.error) start.reset();
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setTouched({ lines: true, ratePerSecond: true });
    if (!data) return;
    start.mutate({ kind: 'pipeline-selftest', params: data }, { onSuccess: () => onOpenChange(false) });
  };

  const estimate =
    data && data.ratePerSecond > 0
      ? `About ${formatDuration((data.lines / data.ratePerSecond) * 1000)} at this rate.`
      : 'Lines are written as fast as the pipe takes them.';
  const apiError = start.error && !(start.error instanceof ApiError && start.error.issues.length) ? start.error : null;

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o) start.reset();
        onOpenChange(o);
      }}
      title="Log pipeline self-test"
      description="A child process prints numbered lines into the job log, so you can watch the live-log path (process → database → followers) end to end."
    >
      <form onSubmit={submit} noValidate className="grid gap-4">
        <ErrorNote error={apiError} />
        <Field label="Lines" htmlFor={`${id}-lines`} error={shown('lines')} hint="1 to 1,000,000 lines.">
          <Input
            id={`${id}-lines`}
            type="number"
            inputMode="numeric"
            min={1}
            max={1_000_000}
            step={1}
            value={values.lines}
            onChange={set('lines')}
            aria-invalid={!!shown('lines')}
            autoFocus
          />
        </Field>
        <Field label="Lines per second" htmlFor={`${id}-rate`} error={shown('ratePerSecond')} hint={`0 means no limit. ${estimate}`}>
          <Input
            id={`${id}-rate`}
            type="number"
            inputMode="numeric"
            min={0}
            max={1_000_000}
            step={1}
            value={values.ratePerSecond}
            onChange={set('ratePerSecond')}
            aria-invalid={!!shown('ratePerSecond')}
          />
        </Field>
        <div className="flex justify-end gap-2">
          <Button type="submit" disabled={!data || start.isPending}>
            {start.isPending ? 'Starting…' : 'Start self-test'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
