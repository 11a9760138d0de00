'use client';

import { ArrowRight } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { Select } from '../ui/input';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { DecisionBadge, RuleCode } from './decision-badge';
import type { ReplayView } from './queries';

const PAGE = 100;
type Row = ReplayView['items'][number];
type Filter = 'all' | 'changed' | 'passing' | 'failing';

const newlyPassing = (r: Row) => r.before.decision !== 'allow' && r.after.decision === 'allow';
const newlyFailing = (r: Row) => r.before.decision === 'allow' && r.after.decision !== 'allow';
const FILTERS: Record<Filter, { label: string; keep: (r: Row) => boolean }> = {
  all: { label: 'Every command', keep: () => true },
  changed: { label: 'Changed only', keep: (r) => r.changed },
  passing: { label: 'Newly passing', keep: newlyPassing },
  failing: { label: 'Newly failing', keep: newlyFailing },
};

function Stat({ label, n, tone }: { label: string; n: number; tone?: 'success' | 'destructive' }) {
  return (
    <div
      data-stat={label}
      className={cn(
        'rounded-md border px-3 py-2',
        tone === 'success' && n > 0 && 'border-success/50 bg-success/10',
        tone === 'destructive' && n > 0 && 'border-destructive/50 bg-destructive/10',
      )}
    >
      <div className="text-xl font-semibold tabular-nums">{n}</div>
      <div className="text-xs text-muted-foreground">{label}</div>
    </div>
  );
}

/** What the proposed profile changes: counts, then each command's decision before and after. */
export function ReplayResults({ result }: { result: ReplayView }) {
  const [filter, setFilter] = useState<Filter>(result.counts.changed ? 'changed' : 'all');
  const [shown, setShown] = useState(PAGE);
  const rows = result.items.filter(FILTERS[filter].keep);
  return (
    <div className="grid gap-3" data-slot="replay-results">
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        <Stat label="Commands" n={result.counts.total} />
        <Stat label="Changed" n={result.counts.changed} />
        <Stat label="Newly passing" n={result.counts.newlyPassing} tone="success" />
        <Stat label="Newly failing" n={result.counts.newlyFailing} tone="destructive" />
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-muted-foreground">
          Before: <span className="font-mono">{result.current}</span> · after: <span className="font-mono">{result.proposed}</span> (the unsaved edits)
        </p>
        <label className="flex items-center gap-2 text-sm">
          Show
          <Select
            aria-label="Which commands to show"
            className="h-8 w-40"
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value as Filter);
              setShown(PAGE);
            }}
          >
            {Object.entries(FILTERS).map(([k, f]) => (
              <option key={k} value={k}>
                {f.label}
              </option>
            ))}
          </Select>
        </label>
      </div>
      {rows.length === 0 ? (
        <p className="rounded-md border border-dashed p-4 text-center text-sm text-muted-foreground">
          {filter === 'all' ? 'No commands were replayed.' : 'No command matches: the edits decide these commands the same way.'}
        </p>
      ) : (
        <Table aria-label="Replay">
          <THead>
            <TR className="hover:bg-transparent">
              <TH>Command</TH>
              <TH>Before</TH>
              <TH className="w-6">
                <span className="sr-only">becomes</span>
              </TH>
              <TH>After</TH>
            </TR>
          </THead>
          <TBody>
            {rows.slice(0, shown).map((r, i) => (
              <TR
                key={i}
                data-command={r.command}
                data-changed={r.changed}
                data-before={r.before.decision}
                data-after={r.after.decision}
                className={cn('align-top', newlyPassing(r) && 'bg-success/5', newlyFailing(r) && 'bg-destructive/5')}
              >
                <TD className="max-w-96">
                  <code className="break-all font-mono text-xs">{r.command}</code>
                </TD>
                <TD>
                  <Verdict v={r.before} />
                </TD>
                <TD>{r.changed ? <ArrowRight aria-hidden className="size-4 text-muted-foreground" /> : null}</TD>
                <TD>
                  <Verdict v={r.after} />
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
      {rows.length > shown ? (
        <div>
          <Button variant="outline" size="sm" onClick={() => setShown(shown + PAGE)}>
            Show {Math.min(PAGE, rows.length - shown)} more of {rows.length - shown}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function Verdict({ v }: { v: Row['before'] }) {
  return (
    <div className="grid justify-items-start gap-1" title={v.reason}>
      <DecisionBadge decision={v.decision} />
      <RuleCode rule={v.rule} />
    </div>
  );
}
