'use client';

import { useQueryClient } from '@tanstack/react-query';
import { Eye, Pencil, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { toast } from 'sonner';
import { deleteAgentAction } from '@/app/(console)/agents/actions';
import { ShowMore, usePagedRows } from '../lists/show-more';
import { Badge } from '../ui/badge';
import { Button, buttonVariants } from '../ui/button';
import { Confirm } from '../ui/dialog';
import { Tip } from '../ui/misc';
import { SortHeader } from '../ui/sort-header';
import { SkeletonRows, Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { invalidateAgents } from './queries';
import type { AgentSort } from './use-agent-filters';
import { type AgentSummary, costText, type DefaultsView, fmt, scopeLabel } from './view';

export function AgentsTable({
  rows,
  loading,
  defaults,
  sort,
  onSort,
}: {
  rows: AgentSummary[];
  loading: boolean;
  defaults: DefaultsView | undefined;
  sort: AgentSort;
  onSort: (s: AgentSort) => void;
}) {
  const can = useCan('agents.write');
  const qc = useQueryClient();
  const paged = usePagedRows(rows);
  const [deleting, setDeleting] = useState<AgentSummary | null>(null);
  const remove = useOperation(deleteAgentAction, {
    input: (id: string) => ({ params: { id } }),
    onSuccess: (_r, id) => {
      toast.success(`Deleted agent ${id}`);
      setDeleting(null);
      invalidateAgents(qc);
    },
    onError: (e) => toast.error('Could not delete the agent', { description: e.message }),
  });
  return (
    <>
      <Table aria-label="Agents" aria-busy={loading || undefined}>
        <THead>
          <TR className="hover:bg-transparent">
            <SortHeader label="Agent" field="id" sort={sort} onSort={onSort} />
            <TH className="hidden md:table-cell">Sandbox</TH>
            <TH>Skill scope</TH>
            <TH className="hidden sm:table-cell">Deny</TH>
            <SortHeader label="Skills" field="skills" sort={sort} onSort={onSort} />
            <SortHeader label="Prompt cost" field="cost" sort={sort} onSort={onSort} />
            <TH className="text-right">Actions</TH>
          </TR>
        </THead>
        <TBody>
          {loading ? (
            <SkeletonRows rows={4} cols={7} />
          ) : (
            paged.visible.map((a) => (
              <TR key={a.id} data-testid={`agent-row-${a.id}`}>
                <TD className="max-w-64">
                  <Link href={`/agents/${encodeURIComponent(a.id)}`} className="font-medium hover:underline focus-visible:outline-2 focus-visible:outline-ring">
                    {a.name}
                  </Link>
                  <div className="truncate font-mono text-xs text-muted-foreground">{a.id}</div>
                </TD>
                <TD className="hidden text-sm md:table-cell">
                  {a.target.kind === 'sandbox' ? a.target.label : <span className="text-muted-foreground">host</span>}
                </TD>
                <TD>
                  <Badge variant={a.scope.kind === 'none' ? 'destructive' : a.scope.kind === 'own' ? 'default' : 'secondary'} data-testid="agent-scope">
                    {defaults ? scopeLabel(a.scope, defaults) : a.scope.kind}
                  </Badge>
                  {a.warnings.length ? (
                    <Badge variant="warning" className="ml-1" title={a.warnings.join('\n')}>
                      {a.warnings.length} unknown
                    </Badge>
                  ) : null}
                </TD>
                <TD className="hidden tabular-nums sm:table-cell">{a.denyCount || <span className="text-muted-foreground">–</span>}</TD>
                <TD className="tabular-nums" data-testid="agent-effective-count">
                  {fmt(a.effective.count)}
                </TD>
                <TD className="text-xs tabular-nums" data-testid="agent-cost">
                  {a.effective.count ? costText(a.effective.chars, a.effective.tokens) : '–'}
                  {a.effective.truncated ? (
                    <Badge variant="warning" className="ml-1">
                      truncated
                    </Badge>
                  ) : a.effective.form === 'compact' ? (
                    <Badge variant="outline" className="ml-1">
                      compact
                    </Badge>
                  ) : null}
                </TD>
                <TD className="text-right">
                  <div className="inline-flex gap-1">
                    <Link
                      href={`/agents/${encodeURIComponent(a.id)}`}
                      className={buttonVariants({ variant: 'ghost', size: 'icon' })}
                      aria-label={`${can.allowed ? 'Edit' : 'View'} ${a.id}`}
                    >
                      {can.allowed ? <Pencil aria-hidden /> : <Eye aria-hidden />}
                    </Link>
                    <Tip content={can.why}>
                      <Button variant="ghost" size="icon" disabled={!can.allowed} aria-label={`Delete ${a.id}`} onClick={() => setDeleting(a)}>
                        <Trash2 aria-hidden />
                      </Button>
                    </Tip>
                  </div>
                </TD>
              </TR>
            ))
          )}
        </TBody>
      </Table>
      <ShowMore left={paged.left} onMore={paged.more} format={fmt} />
      {deleting ? (
        <Confirm
          open
          onOpenChange={(o) => !o && setDeleting(null)}
          title={`Delete agent ${deleting.id}?`}
          description={
            <>
              Its name, description, sandbox binding, {deleting.scope.kind === 'own' ? `its own list of ${deleting.scope.count} skill names, ` : ''}
              {deleting.denyCount ? `its deny list of ${deleting.denyCount}, ` : ''}
              {deleting.budget ? 'its prompt budget, ' : ''}are lost. A gateway asking for <code className="font-mono">{deleting.id}</code> gets 404 and no
              skills from then on.
            </>
          }
          confirmLabel="Delete agent"
          busy={remove.isPending}
          onConfirm={() => remove.mutate(deleting.id)}
        />
      ) : null}
    </>
  );
}
