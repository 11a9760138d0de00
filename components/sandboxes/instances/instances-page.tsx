'use client';

import { AlertTriangle, Box } from 'lucide-react';
import Link from 'next/link';
import { useMemo } from 'react';
import { staleReason } from '@/lib/sandbox/instances/rollout-standing';
import { PageHeader } from '../../shell/shell';
import { Badge } from '../../ui/badge';
import { buttonVariants } from '../../ui/button';
import { Select } from '../../ui/input';
import { EmptyState, RetryableError, Tip } from '../../ui/misc';
import { SortHeader } from '../../ui/sort-header';
import { SkeletonRows, Table, TBody, TD, TH, THead, TR } from '../../ui/table';
import { RelativeTime } from '../../ui/time';
import { useUrlFilters } from '../../ui/use-url-filters';
import { useViewer } from '../../viewer';
import { BACKEND_LABEL } from '../config-card';
import { InstanceActions, instanceHref, StartSandbox } from './instance-actions';
import { type Instance, useInstances } from './queries';
import { principalWords, sharedWith } from './shared-note';

const SORTS = ['created', 'config', 'state', 'idle'] as const;
type SortField = (typeof SORTS)[number];
interface Filters {
  config: string;
  state: string;
  stale: boolean;
  sort: SortField | `-${SortField}`;
}
const STATES = ['creating', 'running', 'paused', 'stopped', 'exited', 'unknown'] as const;

function parse(p: URLSearchParams): Filters {
  const sort = p.get('sort') ?? '-created';
  const valid = SORTS.includes(sort.replace(/^-/, '') as SortField);
  const state = p.get('state') ?? '';
  return {
    config: p.get('config') ?? '',
    state: (STATES as readonly string[]).includes(state) ? state : '',
    stale: p.get('stale') === '1',
    sort: (valid ? sort : '-created') as Filters['sort'],
  };
}
function toQuery(f: Filters): string {
  const q = new URLSearchParams();
  if (f.config) q.set('config', f.config);
  if (f.state) q.set('state', f.state);
  if (f.stale) q.set('stale', '1');
  if (f.sort !== '-created') q.set('sort', f.sort);
  return q.toString();
}

const idleOf = (i: Instance) => i.lastActivityAt ?? i.createdAt;
const KEY: Record<SortField, (i: Instance) => string> = { created: (i) => i.createdAt, config: (i) => i.configName, state: (i) => i.state, idle: idleOf };

/** The sandbox runs an older skill image than its config's active one. */
export function StaleChip({ instance }: { instance: Instance }) {
  const reason = staleReason({ imageGeneration: instance.imageGeneration, activeGeneration: instance.activeImageGeneration, stale: instance.stale });
  if (!reason) return null;
  return (
    <Tip content={reason}>
      <Badge variant="warning" data-stale="true" aria-label={`stale: ${reason}`}>
        stale
      </Badge>
    </Tip>
  );
}

export function StateBadge({ state }: { state: Instance['state'] }) {
  const variant = state === 'running' ? 'success' : state === 'creating' ? 'default' : state === 'unknown' ? 'warning' : 'secondary';
  return (
    <Badge variant={variant} data-state={state}>
      {state}
    </Badge>
  );
}

/** The sandboxes Skilldock runs, across every config's backend. */
export function InstancesPage() {
  const viewer = useViewer();
  const list = useInstances();
  const [filters, setFilters] = useUrlFilters(parse, toQuery);
  const configs = useMemo(() => [...new Map((list.data?.items ?? []).map((i) => [i.configId, i.configName])).entries()], [list.data]);
  const rows = useMemo(() => {
    const field = filters.sort.replace(/^-/, '') as SortField;
    const dir = filters.sort.startsWith('-') ? -1 : 1;
    return (list.data?.items ?? [])
      .filter((i) => (!filters.config || i.configId === filters.config) && (!filters.state || i.state === filters.state) && (!filters.stale || i.stale))
      .sort((a, b) => dir * KEY[field](a).localeCompare(KEY[field](b)));
  }, [list.data, filters]);
  const onSort = (sort: Filters['sort']) => setFilters({ sort });
  return (
    <>
      <PageHeader
        title="Sandbox instances"
        description="The sandboxes Skilldock runs from its configs: state, age, idle time and their artifacts."
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <Link className={buttonVariants({ variant: 'outline' })} href="/sandboxes">
              Configs
            </Link>
            <StartSandbox />
          </div>
        }
      />
      {list.data?.problems.length ? (
        <div role="alert" className="mb-4 flex gap-2 rounded-md border border-warning/40 bg-warning/10 p-3 text-sm">
          <AlertTriangle className="size-4 shrink-0" aria-hidden />
          <ul>
            {list.data.problems.map((p) => (
              <li key={p.configId}>
                <strong>{p.configName}</strong>: its backend could not be asked, so its sandboxes are not listed ({p.message})
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="mb-3 flex flex-wrap gap-2">
        <Select aria-label="Filter by config" value={filters.config} onChange={(e) => setFilters({ config: e.target.value })} className="w-48">
          <option value="">All configs</option>
          {configs.map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </Select>
        <Select aria-label="Filter by state" value={filters.state} onChange={(e) => setFilters({ state: e.target.value })} className="w-40">
          <option value="">All states</option>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Filter by image"
          value={filters.stale ? 'stale' : ''}
          onChange={(e) => setFilters({ stale: e.target.value === 'stale' })}
          className="w-48"
        >
          <option value="">Any skill image</option>
          <option value="stale">Stale (older skill image)</option>
        </Select>
      </div>
      {list.error ? (
        <RetryableError error={list.error} onRetry={() => void list.refetch()} />
      ) : !list.isPending && rows.length === 0 ? (
        <EmptyState icon={<Box />} title={list.data?.items.length ? 'No sandbox matches these filters' : 'No sandboxes running'}>
          Start one with “Start sandbox” above from a config whose full check has passed; skills and agents start their own as they run.
        </EmptyState>
      ) : (
        <Table aria-label="Sandbox instances">
          <THead>
            <TR>
              <SortHeader label="Config" field="config" sort={filters.sort} onSort={onSort} />
              <TH>Backend</TH>
              <TH>Image</TH>
              <SortHeader label="State" field="state" sort={filters.sort} onSort={onSort} />
              <SortHeader label="Age" field="created" sort={filters.sort} onSort={onSort} />
              <SortHeader label="Idle since" field="idle" sort={filters.sort} onSort={onSort} />
              <TH>Owner</TH>
              <TH className="text-right">Actions</TH>
            </TR>
          </THead>
          <TBody>
            {list.isPending ? (
              <SkeletonRows rows={3} cols={8} />
            ) : (
              rows.map((i) => (
                <TR key={i.id} data-instance={i.id}>
                  <TD>
                    <Link className="font-medium underline-offset-2 hover:underline" href={instanceHref(i.id)}>
                      {i.configName} · {i.sandboxId.slice(0, 12)}
                    </Link>
                  </TD>
                  <TD>
                    <Badge variant="outline">{BACKEND_LABEL[i.backend]}</Badge>
                  </TD>
                  <TD className="max-w-56">
                    <div className="flex items-center gap-1.5">
                      <span className="truncate" title={i.image}>
                        {i.image}
                      </span>
                      <StaleChip instance={i} />
                    </div>
                  </TD>
                  <TD>
                    <StateBadge state={i.state} />
                  </TD>
                  <TD>
                    <RelativeTime iso={i.createdAt} />
                  </TD>
                  <TD>
                    <RelativeTime iso={idleOf(i)} />
                  </TD>
                  <TD data-slot="owner">
                    {sharedWith(i.principal, viewer.userId) === null ? (
                      <Badge variant="secondary">you</Badge>
                    ) : (
                      <span title={i.startedBy ? `Started by ${i.startedBy}` : undefined}>{principalWords(i.principal ?? 'unknown')}</span>
                    )}
                  </TD>
                  <TD>
                    <InstanceActions instance={i} />
                  </TD>
                </TR>
              ))
            )}
          </TBody>
        </Table>
      )}
    </>
  );
}
