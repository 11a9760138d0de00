'use client';

import { ScrollText, Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { PageHeader } from '../shell/shell';
import { Button } from '../ui/button';
import { Card } from '../ui/card';
import { Input, Label, Select } from '../ui/input';
import { EmptyState, RetryableError, Skeleton } from '../ui/misc';
import { SortHeader } from '../ui/sort-header';
import { SkeletonRows, Table, TBody, TH, THead, TR } from '../ui/table';
import { useUrlFilters } from '../ui/use-url-filters';
import { ExecLogChart } from './exec-log-chart';
import { applyFilters, type ExecLogFilters, filtersQuery, parseFilters, type Sort } from './exec-log-view';
import { ExecRow } from './exec-row';
import { PolicyTabs } from './policy-tabs';
import { useAgents, useExecLog } from './queries';
import { DECISION_LABEL, DECISIONS } from './view';

const PAGE = 100;

/** Every agent's execs, or one agent's: what it ran or tried, how each was decided, exit code and duration; a chart over time. */
export function ExecLogPage() {
  const [filters, setFilters] = useUrlFilters(parseFilters, filtersQuery);
  const agents = useAgents();
  // No agent chosen: every agent's log, with an agent column.
  const agent = filters.agent;
  const log = useExecLog(agent || null);
  const [text, setText] = useState(filters.q);
  const [shown, setShown] = useState(PAGE);
  useEffect(() => {
    const t = setTimeout(() => text !== filters.q && setFilters({ q: text }), 250);
    return () => clearTimeout(t);
  }, [text, filters.q, setFilters]);
  const rows = applyFilters(log.data?.items ?? [], filters);
  const set = (patch: Partial<ExecLogFilters>) => {
    setShown(PAGE);
    setFilters(patch);
  };
  const sortProps = { sort: filters.sort, onSort: (s: Sort) => set({ sort: s }) };

  return (
    <>
      <PageHeader title="Exec log" description="Every command an agent sent to the gateway's exec, with its decision, exit code and duration." />
      <PolicyTabs />
      {agents.error ? (
        <RetryableError error={agents.error} onRetry={() => void agents.refetch()} />
      ) : agents.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : !agents.data.items.length ? (
        <EmptyState icon={<ScrollText />} title="No agents yet">
          Create an agent and bind it to a sandbox config; the commands it runs through the exec route are logged here.
        </EmptyState>
      ) : (
        <div className="grid gap-4">
          <div className="flex flex-wrap items-end gap-3" role="search" aria-label="Filter the exec log">
            <div className="grid w-full gap-1.5 sm:w-56">
              <Label htmlFor="exec-agent">Agent</Label>
              <Select id="exec-agent" value={agent} onChange={(e) => set({ agent: e.target.value })}>
                <option value="">All agents</option>
                {agent && !agents.data.items.some((a) => a.id === agent) ? <option value={agent}>{agent}</option> : null}
                {agents.data.items.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </Select>
            </div>
            <div className="grid w-full gap-1.5 sm:w-40">
              <Label htmlFor="exec-decision">Decision</Label>
              <Select id="exec-decision" value={filters.decision} onChange={(e) => set({ decision: e.target.value as ExecLogFilters['decision'] })}>
                <option value="">Any decision</option>
                {DECISIONS.map((d) => (
                  <option key={d} value={d}>
                    {DECISION_LABEL[d]}
                  </option>
                ))}
              </Select>
            </div>
            <div className="grid min-w-56 flex-1 gap-1.5">
              <Label htmlFor="exec-q">Search</Label>
              <div className="relative">
                <Search aria-hidden className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
                <Input
                  id="exec-q"
                  type="search"
                  className="pl-8"
                  value={text}
                  maxLength={200}
                  placeholder="Command, rule or reason"
                  onChange={(e) => setText(e.target.value)}
                />
              </div>
            </div>
          </div>
          {log.error ? (
            <RetryableError error={log.error} onRetry={() => void log.refetch()} />
          ) : (
            <>
              {log.data ? <ExecLogChart rows={rows} /> : <Skeleton className="h-48 w-full" />}
              <Card>
                <Table aria-label="Exec log">
                  <THead>
                    <TR className="hover:bg-transparent">
                      <SortHeader label="Time" field="at" {...sortProps} />
                      {agent ? null : <TH>Agent</TH>}
                      <SortHeader label="Command" field="command" {...sortProps} />
                      <SortHeader label="Decision" field="decision" {...sortProps} />
                      <SortHeader label="Rule" field="rule" {...sortProps} />
                      <SortHeader label="Exit" field="exitCode" {...sortProps} />
                      <SortHeader label="Duration" field="durationMs" {...sortProps} />
                    </TR>
                  </THead>
                  <TBody>
                    {log.isPending ? <SkeletonRows rows={4} cols={agent ? 6 : 7} /> : null}
                    {rows.slice(0, shown).map((r) => (
                      <ExecRow key={r.id} exec={r} detailed withAgent={!agent} />
                    ))}
                  </TBody>
                </Table>
                {log.data && !rows.length ? (
                  <p className="p-6 text-center text-sm text-muted-foreground">
                    {log.data.items.length
                      ? 'No exec matches the filters.'
                      : agent
                        ? 'This agent has not sent a command to the exec route yet.'
                        : 'No agent has sent a command to the exec route yet.'}
                  </p>
                ) : null}
              </Card>
              {rows.length > shown ? (
                <div>
                  <Button variant="outline" size="sm" onClick={() => setShown(shown + PAGE)}>
                    Show {Math.min(PAGE, rows.length - shown)} more of {rows.length - shown}
                  </Button>
                </div>
              ) : null}
            </>
          )}
        </div>
      )}
    </>
  );
}
