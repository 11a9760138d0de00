'use client';

import { Bot, Grid3x3, Plus } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { FilterBar, optionsOf, SearchFilter, SelectFilter } from '../lists/filter-bar';
import { NoMatchState, QueryListState } from '../lists/query-list-state';
import { PageHeader } from '../shell/shell';
import { usePaletteIntent } from '../shell/use-palette-intent';
import { Button, buttonVariants } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { EmptyState, Tip } from '../ui/misc';
import { useCan } from '../viewer';
import { AgentsTable } from './agents-table';
import { CreateAgentDialog } from './create-agent-dialog';
import { DefaultsCard } from './defaults-card';
import { useAgentSummaries, useMatrix } from './queries';
import { applyAgentFilters, SCOPES, useAgentFilters } from './use-agent-filters';

const SCOPE_OPTIONS = optionsOf(SCOPES, { all: 'Every scope', inherits: 'Inherits defaults', own: 'Own list', none: 'No skills' });

/** /agents: every agent with its scope and prompt cost, the defaults, and a new-agent dialog. */
export function AgentsPage() {
  const list = useAgentSummaries();
  const matrix = useMatrix();
  const can = useCan('agents.write');
  const [filters, setFilters] = useAgentFilters();
  const [creating, setCreating] = useState(false);
  // ?new=1 (the command palette's "Create an agent") opens the dialog once, then leaves the URL.
  usePaletteIntent('new', can.allowed, () => setCreating(true));
  const data = list.data;
  const rows = data ? applyAgentFilters(data.items, filters) : [];
  const reset = () => setFilters({ q: '', scope: 'all' });
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
            <FilterBar filtered={!!filters.q || filters.scope !== 'all'} onReset={reset}>
              <SearchFilter label="Search agents" placeholder="Search agents…" value={filters.q} onChange={(q) => setFilters({ q })} className="w-56" />
              <SelectFilter label="Skill scope" value={filters.scope} options={SCOPE_OPTIONS} onChange={(scope) => setFilters({ scope })} className="w-44" />
            </FilterBar>
            <QueryListState
              query={list}
              total={(d) => d.items.length}
              matched={rows.length}
              empty={
                <EmptyState icon={<Bot />} title="No agents yet" action={can.allowed ? newButton('new-agent-empty') : null}>
                  Create an agent for each bot of your gateway. It inherits the defaults below until you give it its own list; gateways then read its skills
                  from <code className="rounded bg-muted px-1 font-mono text-foreground">GET /api/v1/agents/&lt;id&gt;/skills</code>.
                </EmptyState>
              }
              noMatch={
                <NoMatchState title="No agents match" resetLabel="Show every agent" onReset={reset}>
                  Nothing matches these filters; try other words or another scope.
                </NoMatchState>
              }
            >
              <AgentsTable rows={rows} loading={!data} defaults={data?.defaults} sort={filters.sort} onSort={(sort) => setFilters({ sort })} />
            </QueryListState>
          </CardContent>
        </Card>
        {data ? <DefaultsCard key={data.defaults.revision} defaults={data.defaults} builtin={data.builtinBudget} known={known} /> : null}
      </div>
      {creating ? <CreateAgentDialog open onOpenChange={setCreating} /> : null}
    </>
  );
}
