'use client';

import { Lock, SquareTerminal, X } from 'lucide-react';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { PageHeader } from '../../shell/shell';
import { formatBytes } from '../../skills/import/upload';
import { Badge } from '../../ui/badge';
import { Button, buttonVariants } from '../../ui/button';
import { Confirm } from '../../ui/dialog';
import { Select } from '../../ui/input';
import { EmptyState, RetryableError } from '../../ui/misc';
import { SortHeader } from '../../ui/sort-header';
import { SkeletonRows, Table, TBody, TD, TH, THead, TR } from '../../ui/table';
import { RelativeTime } from '../../ui/time';
import { useUrlFilters } from '../../ui/use-url-filters';
import { useCan } from '../../viewer';
import { instanceHref } from '../instances/instance-actions';
import { useSandboxConfigs } from '../queries';
import { formatIdle, sandboxLabel } from './format';
import { type TerminalSession, useCloseTerminalSession, useTerminalSessions } from './queries';
import { TranscriptsCard } from './transcripts-card';

const SORTS = ['since', 'user', 'sandbox', 'idle'] as const;
type SortField = (typeof SORTS)[number];
interface Filters {
  user: string;
  attached: '' | 'yes' | 'no';
  sort: SortField | `-${SortField}`;
}

function parse(p: URLSearchParams): Filters {
  const sort = p.get('sort') ?? '-since';
  const valid = SORTS.includes(sort.replace(/^-/, '') as SortField);
  const attached = p.get('attached');
  return {
    user: p.get('user') ?? '',
    attached: attached === 'yes' || attached === 'no' ? attached : '',
    sort: (valid ? sort : '-since') as Filters['sort'],
  };
}
function toQuery(f: Filters): string {
  const q = new URLSearchParams();
  if (f.user) q.set('user', f.user);
  if (f.attached) q.set('attached', f.attached);
  if (f.sort !== '-since') q.set('sort', f.sort);
  return q.toString();
}

const KEY: Record<SortField, (s: TerminalSession) => string | number> = {
  since: (s) => s.startedAt,
  user: (s) => s.user,
  sandbox: (s) => s.sandboxId,
  idle: (s) => s.idleSeconds,
};
const compare = (a: string | number, b: string | number) => (typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)));

/** Admin → Terminal sessions: who has a shell open in which sandbox, closing one, and the recorded transcripts. */
export function TerminalsPage() {
  const can = useCan('terminals.manage');
  const header = (
    <PageHeader
      title="Terminal sessions"
      description="The browser terminals open in this Skilldock process: who, in which sandbox, since when and how idle. Closing one ends its shell."
      actions={
        <Link className={buttonVariants({ variant: 'outline' })} href="/sandboxes/instances">
          Instances
        </Link>
      }
    />
  );
  if (!can.allowed)
    return (
      <>
        {header}
        <EmptyState icon={<Lock />} title="Terminal sessions are not available to you">
          {can.why} Admins and owners see and close every open terminal and download transcripts.
        </EmptyState>
      </>
    );
  return (
    <>
      {header}
      <div className="grid grid-cols-1 gap-8">
        <SessionsTable />
        <TranscriptsCard />
      </div>
    </>
  );
}

function SessionsTable() {
  const list = useTerminalSessions(true);
  const configs = useSandboxConfigs();
  const names = useMemo(() => new Map((configs.data?.items ?? []).map((c) => [c.id, c.name])), [configs.data]);
  const [filters, setFilters] = useUrlFilters(parse, toQuery);
  const [closing, setClosing] = useState<TerminalSession | null>(null);
  const close = useCloseTerminalSession();
  const users = useMemo(() => [...new Set((list.data?.items ?? []).map((s) => s.user))].sort(), [list.data]);
  const rows = useMemo(() => {
    const field = filters.sort.replace(/^-/, '') as SortField;
    const dir = filters.sort.startsWith('-') ? -1 : 1;
    return (list.data?.items ?? [])
      .filter((s) => (!filters.user || s.user === filters.user) && (!filters.attached || s.attached === (filters.attached === 'yes')))
      .sort((a, b) => dir * compare(KEY[field](a), KEY[field](b)));
  }, [list.data, filters]);
  const onSort = (sort: Filters['sort']) => setFilters({ sort });
  const confirmClose = () => {
    const s = closing;
    if (!s) return;
    close.mutate(s.id, {
      onSuccess: () => {
        toast.success('Terminal closed', { description: `${s.user}’s shell in ${sandboxLabel(s.sandboxId, names)} has ended.` });
        setClosing(null);
      },
      onError: (e) => toast.error('Could not close the terminal', { description: e.message }),
    });
  };
  return (
    <section aria-labelledby="open-sessions" className="grid gap-3">
      <h2 id="open-sessions" className="text-lg font-semibold">
        Open sessions
      </h2>
      <div className="flex flex-wrap gap-2">
        <Select aria-label="Filter by user" value={filters.user} onChange={(e) => setFilters({ user: e.target.value })} className="w-56">
          <option value="">All users</option>
          {users.map((u) => (
            <option key={u} value={u}>
              {u}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Filter by attached"
          value={filters.attached}
          onChange={(e) => setFilters({ attached: e.target.value as Filters['attached'] })}
          className="w-44"
        >
          <option value="">Attached or not</option>
          <option value="yes">Attached</option>
          <option value="no">Waiting for re-attach</option>
        </Select>
      </div>
      {list.error ? (
        <RetryableError error={list.error} onRetry={() => void list.refetch()} />
      ) : !list.isPending && rows.length === 0 ? (
        <EmptyState icon={<SquareTerminal />} title={list.data?.items.length ? 'No session matches these filters' : 'No terminal is open'}>
          Operators open a terminal from a running sandbox’s page; it is listed here while its shell runs.
        </EmptyState>
      ) : (
        <Table aria-label="Open terminal sessions">
          <THead>
            <TR>
              <SortHeader label="User" field="user" sort={filters.sort} onSort={onSort} />
              <SortHeader label="Sandbox" field="sandbox" sort={filters.sort} onSort={onSort} />
              <SortHeader label="Since" field="since" sort={filters.sort} onSort={onSort} />
              <SortHeader label="Idle" field="idle" sort={filters.sort} onSort={onSort} />
              <TH className="text-right">In / out</TH>
              <TH>Attached</TH>
              <TH className="text-right">Actions</TH>
            </TR>
          </THead>
          <TBody>
            {list.isPending ? (
              <SkeletonRows rows={3} cols={7} />
            ) : (
              rows.map((s) => (
                <TR key={s.id} data-session={s.id}>
                  <TD className="max-w-56 truncate">{s.user}</TD>
                  <TD>
                    <Link className="font-medium underline-offset-2 hover:underline" href={instanceHref(s.sandboxId)} title={s.sandboxId}>
                      {sandboxLabel(s.sandboxId, names)}
                    </Link>
                  </TD>
                  <TD>
                    <RelativeTime iso={s.startedAt} />
                  </TD>
                  <TD className="whitespace-nowrap">{formatIdle(s.idleSeconds)}</TD>
                  <TD className="whitespace-nowrap text-right tabular-nums">
                    {formatBytes(s.bytesIn)} / {formatBytes(s.bytesOut)}
                  </TD>
                  <TD>{s.attached ? <Badge variant="success">yes</Badge> : <Badge variant="secondary">no</Badge>}</TD>
                  <TD className="text-right">
                    <Button size="sm" variant="outline" disabled={close.isPending} onClick={() => setClosing(s)} aria-label={`Close ${s.user}’s terminal`}>
                      <X aria-hidden /> Close
                    </Button>
                  </TD>
                </TR>
              ))
            )}
          </TBody>
        </Table>
      )}
      <Confirm
        open={!!closing}
        onOpenChange={(o) => !o && setClosing(null)}
        title="Close this terminal?"
        description={
          closing ? (
            <>
              {closing.user}’s terminal in {sandboxLabel(closing.sandboxId, names)} is closed: their shell and everything running in it ends. Their browser
              shows that an admin closed it.
            </>
          ) : null
        }
        confirmLabel="Close terminal"
        busy={close.isPending}
        onConfirm={confirmClose}
      />
    </section>
  );
}
