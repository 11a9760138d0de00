'use client';

import { ListChecks, ListX, Undo2 } from 'lucide-react';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { changesOf, type Draft, setCells, setOwn } from '@/lib/agents/matrix-draft';
import { FilterBar, SearchFilter, SelectFilter } from '../lists/filter-bar';
import { QueryListState } from '../lists/query-list-state';
import { PageHeader } from '../shell/shell';
import { SOURCE_LABELS, SOURCE_ORDER, STATUS_TABS } from '../skills/view';
import { Button, buttonVariants } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { EmptyState, RetryableError, Skeleton, Tip } from '../ui/misc';
import { useUrlFilters } from '../ui/use-url-filters';
import { useCan } from '../viewer';
import { MatrixGrid } from './matrix-grid';
import { useMatrix } from './queries';
import type { MatrixAgent } from './view';
import { WhatIfDialog } from './what-if-dialog';

interface Filters {
  q: string;
  source: string;
  status: string;
  agent: string;
}
// The two bulk buttons: every agent shown gets every skill shown ticked, or unticked.
const BULK = [
  { value: true, icon: ListChecks, label: 'Tick all shown' },
  { value: false, icon: ListX, label: 'Untick all shown' },
];
const SOURCE_OPTIONS = [{ value: '', label: 'All sources' }, ...SOURCE_ORDER.map((s) => ({ value: s as string, label: SOURCE_LABELS[s] }))];
const STATUS_OPTIONS = [
  { value: '', label: 'Every status' },
  ...STATUS_TABS.filter((t) => t.id !== 'all').map((t) => ({ value: t.id as string, label: t.label })),
];
const parse = (p: URLSearchParams): Filters => ({
  q: (p.get('q') ?? '').slice(0, 200),
  source: (SOURCE_ORDER as string[]).includes(p.get('source') ?? '') ? p.get('source')! : '',
  status: STATUS_TABS.some((t) => t.id === p.get('status') && t.id !== 'all') ? p.get('status')! : '',
  agent: (p.get('agent') ?? '').slice(0, 200),
});
const toQuery = (f: Filters) => {
  const p = new URLSearchParams();
  for (const k of ['q', 'source', 'status', 'agent'] as const) if (f[k]) p.set(k, f[k]);
  return p.toString();
};

/** /agents/matrix: every agent's allowlist against the catalog, edited in bulk, reviewed as a what-if, saved in one batch. */
export function MatrixPage() {
  const m = useMatrix();
  const can = useCan('agents.write');
  const [f, setF] = useUrlFilters(parse, toQuery);
  const [draft, setDraft] = useState<Draft>(new Map());
  const [reviewing, setReviewing] = useState(false);
  const data = m.data;
  const catalog = useMemo(() => (data?.skills ?? []).map((s) => s.name), [data]);
  const skills = useMemo(() => {
    const q = f.q.trim().toLowerCase();
    return (data?.skills ?? []).filter(
      (s) =>
        (!f.source || s.source === f.source) && (!f.status || s.status === f.status) && (!q || s.name.includes(q) || s.description.toLowerCase().includes(q)),
    );
  }, [data, f.q, f.source, f.status]);
  const agents = useMemo(() => {
    const q = f.agent.trim().toLowerCase();
    return (data?.agents ?? []).filter((a) => !q || a.id.includes(q) || a.name.toLowerCase().includes(q));
  }, [data, f.agent]);
  const changes = data ? changesOf(draft, data.agents) : [];
  const filtered = !!(f.q || f.source || f.status || f.agent);

  if (m.error && !data) return <RetryableError error={m.error} onRetry={() => void m.refetch()} />;
  const bulk = (list: MatrixAgent[], names: string[], value: boolean) => {
    const r = setCells(draft, list, names, value);
    setDraft(r.draft);
    if (r.skipped)
      toast.info(`${r.skipped} agent${r.skipped === 1 ? '' : 's'} inherit the defaults and were left alone`, {
        description: 'Give an agent its own list to tick its boxes.',
      });
  };
  return (
    <>
      <PageHeader
        title="Allowlist matrix"
        description="Every agent against every skill. Agents that inherit the defaults show them greyed; give one its own list to change its boxes. Review the what-if, then save all at once."
        actions={
          <Link href="/agents" className={buttonVariants({ variant: 'outline' })}>
            Agents
          </Link>
        }
      />
      <Card>
        <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-3 pt-5">
          <FilterBar filtered={filtered} onReset={() => setF({ q: '', source: '', status: '', agent: '' })}>
            <SearchFilter label="Search skills" placeholder="Search skills…" value={f.q} onChange={(q) => setF({ q })} className="w-48" />
            <SelectFilter label="Source" value={f.source} options={SOURCE_OPTIONS} onChange={(source) => setF({ source })} className="w-36" />
            <SelectFilter label="Status" value={f.status} options={STATUS_OPTIONS} onChange={(status) => setF({ status })} className="w-36" />
            <SearchFilter label="Filter agents" placeholder="Filter agents…" value={f.agent} onChange={(agent) => setF({ agent })} className="w-44" />
          </FilterBar>
          <div className="flex flex-wrap items-center gap-2">
            {BULK.map((b) => (
              <Tip key={b.label} content={can.why}>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={!can.allowed || !data}
                  onClick={() =>
                    bulk(
                      agents,
                      skills.map((s) => s.name),
                      b.value,
                    )
                  }
                >
                  <b.icon aria-hidden /> {b.label}
                </Button>
              </Tip>
            ))}
            <span className="ml-auto text-sm text-muted-foreground" data-testid="matrix-changes" aria-live="polite">
              {changes.length ? `${changes.length} agent${changes.length === 1 ? '' : 's'} changed` : 'No unsaved changes'}
            </span>
            {changes.length ? (
              <Button size="sm" variant="ghost" onClick={() => setDraft(new Map())}>
                <Undo2 aria-hidden /> Discard
              </Button>
            ) : null}
            <Tip content={can.why}>
              <Button size="sm" disabled={!can.allowed || !changes.length} onClick={() => setReviewing(true)} data-testid="matrix-review">
                Review and save…
              </Button>
            </Tip>
          </div>
          <QueryListState
            query={m}
            total={(d) => d.agents.length}
            matched={Math.min(skills.length, agents.length)}
            loading={<Skeleton className="h-96 w-full" />}
            empty={<EmptyState title="No agents yet">Create agents on the Agents page; each becomes a row here.</EmptyState>}
            noMatch={<EmptyState title="Nothing matches">No {skills.length ? 'agent' : 'skill'} matches these filters.</EmptyState>}
          >
            {data ? (
              <MatrixGrid
                agents={agents}
                skills={skills}
                defaults={data.defaults}
                draft={draft}
                canWrite={can.allowed}
                why={can.why}
                act={{
                  toggle: (a, name, value) => setDraft((d) => setCells(d, [a], [name], value).draft),
                  row: (a, value) =>
                    bulk(
                      [a],
                      skills.map((s) => s.name),
                      value,
                    ),
                  column: (name, value) => bulk(agents, [name], value),
                  own: (a, own) => setDraft((d) => setOwn(d, a, data.defaults, catalog, own)),
                }}
              />
            ) : null}
          </QueryListState>
          <p className="text-xs text-muted-foreground">
            Arrow keys move between boxes, space ticks or unticks. Deny lists are edited on each agent’s page and still win over a ticked box.
          </p>
        </CardContent>
      </Card>
      {reviewing && data ? (
        <WhatIfDialog
          changes={changes}
          names={new Map(data.agents.map((a) => [a.id, a.name]))}
          onClose={() => setReviewing(false)}
          onSaved={() => {
            setReviewing(false);
            setDraft(new Map());
          }}
        />
      ) : null}
    </>
  );
}
