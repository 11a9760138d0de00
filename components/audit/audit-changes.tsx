'use client';

import { cn } from '../ui/cn';
import { type Change, deepEqual, pretty, shallowDiff } from './diff';

const LEFT: Record<Change, string> = { added: '', removed: 'bg-destructive/10', changed: 'bg-destructive/10', same: '' };
const RIGHT: Record<Change, string> = { added: 'bg-success/15', removed: '', changed: 'bg-success/15', same: '' };
/** What each side says about a key, for the highlight and for screen readers ('' = unmarked). */
const MARK_BEFORE: Record<Change, string> = { added: '', removed: 'removed', changed: 'changed', same: '' };
const MARK_AFTER: Record<Change, string> = { added: 'added', removed: '', changed: 'changed', same: '' };

function Cell({ k, value, tint, dim, mark, side }: { k: string; value: unknown; tint: string; dim: boolean; mark: string; side: 'before' | 'after' }) {
  const text = pretty(value);
  return (
    <div
      data-side={side}
      data-changed={mark ? 'true' : undefined}
      className={cn(
        'relative min-w-0 border-l-2 border-transparent px-3 py-0.5',
        side === 'after' && 'shadow-[inset_1px_0_0_var(--border)]',
        tint,
        mark && (side === 'before' ? 'border-destructive/60' : 'border-success/70'),
        dim && 'text-muted-foreground',
      )}
    >
      {text === null ? null : (
        <pre className="font-mono text-xs whitespace-pre-wrap break-all">
          <span className="text-primary">{JSON.stringify(k)}</span>: {text.replace(/\n/g, '\n  ')}
          {mark ? <span className="sr-only"> ({mark})</span> : null}
        </pre>
      )}
    </div>
  );
}

function Whole({ label, value, changed }: { label: string; value: unknown; changed: boolean }) {
  return (
    <div className="grid min-w-0 content-start gap-1.5">
      <p className="text-xs font-medium text-muted-foreground">{label}</p>
      <pre
        className={cn(
          'overflow-x-auto rounded-md border bg-background p-3 font-mono text-xs whitespace-pre-wrap break-all',
          changed && (label === 'Before' ? 'bg-destructive/10' : 'bg-success/15'),
        )}
      >
        {pretty(value) ?? 'null'}
      </pre>
    </div>
  );
}

/** Before and after side by side; keys whose values differ are tinted (removed/old red, added/new green). */
export function AuditChanges({ before, after }: { before: unknown; after: unknown }) {
  const diff = shallowDiff(before, after);
  if (before == null && after == null) return <p className="text-sm text-muted-foreground">This entry records no before/after state.</p>;
  if (!diff) {
    const changed = !deepEqual(before, after);
    return (
      <div className="grid gap-3 md:grid-cols-2">
        <Whole label="Before" value={before} changed={changed} />
        <Whole label="After" value={after} changed={changed} />
      </div>
    );
  }
  const changedKeys = diff.filter((d) => d.change !== 'same');
  return (
    <div className="grid gap-2">
      <p className="text-xs text-muted-foreground">
        {before == null
          ? 'Created with: '
          : after == null
            ? 'Removed; it had: '
            : changedKeys.length === 0
              ? 'No field changed.'
              : `${changedKeys.length} ${changedKeys.length === 1 ? 'field' : 'fields'} changed: `}
        {changedKeys.map((d, i) => (
          <span key={d.key}>
            {i ? ', ' : ''}
            <code className="font-mono text-foreground">{d.key}</code>
          </span>
        ))}
      </p>
      <div className="overflow-hidden rounded-md border bg-background">
        <div className="grid grid-cols-2 border-b bg-muted/50 text-xs font-medium text-muted-foreground">
          <div className="px-3 py-1.5">Before{before == null ? ' (none)' : ''}</div>
          <div className="border-l px-3 py-1.5">After{after == null ? ' (none)' : ''}</div>
        </div>
        <div className="grid grid-cols-2 py-1" role="group" aria-label="Field changes">
          {diff.map((d) => (
            <div key={d.key} className="contents">
              <Cell k={d.key} value={d.before} tint={LEFT[d.change]} dim={d.change === 'same'} mark={MARK_BEFORE[d.change]} side="before" />
              <Cell k={d.key} value={d.after} tint={RIGHT[d.change]} dim={d.change === 'same'} mark={MARK_AFTER[d.change]} side="after" />
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
