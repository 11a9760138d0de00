'use client';

import { Bot, Grid3x3, Plus, SearchX } from 'lucide-react';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { PageHeader } from '../shell/shell';
import { Button, buttonVariants } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { Input, Select } from '../ui/input';
import { EmptyState, RetryableError, Tip } from '../ui/misc';
import { useCan } from '../viewer';
import { AgentsTable } from './agents-table';
import { CreateAgentDialog } from './create-agent-dialog';
import { DefaultsCard } from './defaults-card';
import { useAgentSummaries, useMatrix } from './queries';
import { applyAgentFilters, SCOPES, useAgentFilters } from './use-agent-filters';

const SCOPE_LABELS = { all: 'Every scope', inherits: 'Inherits defaults', own: 'Own list', none: 'No skills' } as const;

/** /agents: every agent with its scope and prompt cost, the defaults, and a new-agent dialog. */
export function AgentsPage() {
  const list = useAgentSummaries();
  const matrix = useMatrix();
  const can = useCan('agents.write');
  const [filters, setFilters] = useAgentFilters();
  const [creating, setCreating] = useState(false);
  // ?new=1 (the command palette's "Create an agent") opens the dialog once, then leaves the URL.
  const wantsNew = useSearchParams().get('new') === '1';
  useEffect(() => {
    if (!wantsNew) return;
    if (can.allowed) setCreating(true);
    const url = new URL(window.location.href);
    url.searchParams.delete('new');
    window.history.replaceState(window.history.state, '', url.pathname + url.search);
  }, [wantsNew, can.allowed]);
  const data = list.data;
  const rows = data ? applyAgentFilters(data.items, filters) : [];
  const known = matrix.data ? new Set(matrix.data.skills.map((s) => s.name)) : null;
  // The header's button, and the empty state's (a test id of its own, so each is found alone).
  const newButton = (testId = 'new-agent') => (
    <Tip content={can.why}>
      <Button disabled={!can.allowed} onClick={() => setCreating(true)} data-testid={testId}>
        <Plus aria-hidden /> New agent
      </Button>
    </Tip>
  );
  return (
    <>
      <PageHeader
        title="Agents"
        description="Which skills each agent of your gateway may use, what its prompt catalog costs, and why a skill is or is not visible to it."
        actions={
          <>
            <Link href="/agents/matrix" className={buttonVariants({ variant: 'outline' })}>
              <Grid3x3 aria-hidden /> Allowlist matrix
            </Link>
            {newButton()}
          </>
        }
      />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
        <Card>
          <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-3 pt-5">
            <div className="flex flex-wrap items-center gap-2">
              <Input
                type="search"
                value={filters.q}
                onChange={(e) => setFilters({ q: e.target.value })}
                placeholder="Search agents…"
                aria-label="Search agents"
                className="h-8 w-56"
              />
              <Select aria-label="Skill scope" value={filters.scope} onChange={(e) => setFilters({ scope: e.target.value as never })} className="h-8 w-44">
                {SCOPES.map((s) => (
                  <option key={s} value={s}>
                    {SCOPE_LABELS[s]}
                  </option>
                ))}
              </Select>
              {filters.q || filters.scope !== 'all' ? (
                <Button variant="ghost" size="sm" onClick={() => setFilters({ q: '', scope: 'all' })}>
                  Reset filters
                </Button>
              ) : null}
            </div>
            {list.error && !data ? (
              <RetryableError error={list.error} onRetry={() => void list.refetch()} />
            ) : data && data.items.length === 0 ? (
              <EmptyState icon={<Bot />} title="No agents yet" action={can.allowed ? newButton('new-agent-empty') : null}>
                Create an agent for each bot of your gateway. It inherits the defaults below until you give it its own list; gateways then read its skills from{' '}
                <code className="rounded bg-muted px-1 font-mono text-foreground">GET /api/v1/agents/&lt;id&gt;/skills</code>.
              </EmptyState>
            ) : data && rows.length === 0 ? (
              <EmptyState
                icon={<SearchX />}
                title="No agents match"
                action={
                  <Button variant="outline" onClick={() => setFilters({ q: '', scope: 'all' })}>
                    Show every agent
                  </Button>
                }
              >
                Nothing matches these filters; try other words or another scope.
              </EmptyState>
            ) : (
              <AgentsTable rows={rows} loading={!data} defaults={data?.defaults} sort={filters.sort} onSort={(sort) => setFilters({ sort })} />
            )}
          </CardContent>
        </Card>
        {data ? <DefaultsCard key={data.defaults.revision} defaults={data.defaults} builtin={data.builtinBudget} known={known} /> : null}
      </div>
      {creating ? <CreateAgentDialog open onOpenChange={setCreating} /> : null}
    </>
  );
}
