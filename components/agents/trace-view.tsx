'use client';

import { CircleCheck, CircleMinus, CircleX, TriangleAlert } from 'lucide-react';
import { Badge } from '../ui/badge';
import { type SkillTraceView, STEP_LABELS } from './view';

/** The steps a trace fails (skipped ones are not judged), in order. */
export const failedSteps = (t: SkillTraceView) => t.steps.filter((s) => !s.pass && !s.skipped);

/** The verdict of one trace in a few words: every step it fails, so all reasons show at once. */
export function traceVerdict(t: SkillTraceView): { label: string; variant: 'success' | 'destructive' | 'warning' | 'secondary' } {
  if (t.effective) return { label: 'visible', variant: 'success' };
  if (t.excluded) return { label: 'not on the list', variant: 'secondary' };
  if (t.failedAt === 'prompt') return { label: 'cut by the budget', variant: 'warning' };
  const failed = failedSteps(t);
  const names = failed.length ? failed.map((s) => STEP_LABELS[s.step].toLowerCase()) : [STEP_LABELS[t.failedAt ?? 'found'].toLowerCase()];
  return { label: `not ${names.join(', not ')}`, variant: 'destructive' };
}

/** The warning step of a trace (the exec policy refuses some of what the skill documents), if any. */
export const traceWarning = (t: SkillTraceView) => t.steps.find((s) => s.warning);

/** The steps of a trace, from the roots to the prompt, each with its verdict and reason. */
export function TraceSteps({ trace }: { trace: SkillTraceView }) {
  return (
    <div className="grid gap-2">
      <ol className="grid gap-1.5" aria-label={`How ${trace.name} gets to the prompt`}>
        {trace.steps.map((s) => {
          const Icon = s.skipped ? CircleMinus : s.warning ? TriangleAlert : s.pass ? CircleCheck : CircleX;
          const tone = s.skipped ? 'text-muted-foreground' : s.warning ? 'text-warning' : s.pass ? 'text-success' : 'text-destructive';
          return (
            <li key={s.step} className="flex items-start gap-2 text-sm" data-step={s.step} data-pass={s.pass} data-warning={s.warning ? true : undefined}>
              <Icon aria-hidden className={`mt-0.5 size-4 shrink-0 ${tone}`} />
              <span className="w-32 shrink-0 font-medium">{STEP_LABELS[s.step]}</span>
              <span className="min-w-0 break-words text-muted-foreground">
                <span className="sr-only">{s.skipped ? 'skipped' : s.warning ? 'warning' : s.pass ? 'passes' : 'fails'}: </span>
                {s.detail}
              </span>
            </li>
          );
        })}
      </ol>
      {trace.copies.length > 1 ? (
        <div className="text-xs text-muted-foreground">
          Copies:{' '}
          {trace.copies.map((c, i) => (
            <span key={c.dir}>
              {i ? ' · ' : ''}
              <Badge variant={c.won ? 'default' : 'outline'}>{c.won ? 'won' : 'shadowed'}</Badge> {c.source} <code className="break-all">{c.dir}</code>
            </span>
          ))}
        </div>
      ) : null}
    </div>
  );
}
