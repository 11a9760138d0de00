'use client';

import { Download, FileArchive } from 'lucide-react';
import Link from 'next/link';
import { Badge } from '../../ui/badge';
import { Button, buttonVariants } from '../../ui/button';
import { EmptyState, ErrorNote, Tip } from '../../ui/misc';
import { SortHeader } from '../../ui/sort-header';
import { SkeletonRows, Table, TBody, TD, TH, THead, TR } from '../../ui/table';
import { RelativeTime } from '../../ui/time';
import { useCan } from '../../viewer';
import { principalWords } from '../instances/shared-note';
import { type ArtifactCollection, type ArtifactList, artifactUrl, formatBytes } from './queries';

/** The artifacts page narrowed to a sandbox's session (it works after the sandbox is gone). */
export const sessionHref = (instanceId: string) => `/sandboxes/artifacts?session=${encodeURIComponent(instanceId)}`;

export const SORTS = ['collectedAt', 'name', 'path', 'size'] as const;
export type SortField = (typeof SORTS)[number];
export type Sort = SortField | `-${SortField}`;

const TRIGGER: Record<ArtifactCollection['trigger'], string> = {
  recycle: 'recycle',
  next_turn: 'next-turn recycle',
  remove: 'removal',
  idle_sweep: 'idle sweep',
};

const STATUS_VARIANT: Record<ArtifactCollection['status'], 'success' | 'warning' | 'destructive' | 'secondary' | 'default'> = {
  collected: 'success',
  partial: 'warning',
  empty: 'secondary',
  failed: 'destructive',
  not_supported: 'secondary',
  collecting: 'default',
};

/** The collections in scope: when, why, what they kept and what each left out. */
export function CollectionsSummary({ collections }: { collections: ArtifactCollection[] }) {
  if (!collections.length) return null;
  return (
    <ul className="grid gap-1.5 text-sm" aria-label="Collections">
      {collections.map((c) => (
        <li key={c.id} data-collection={c.id} className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
          <Badge variant={STATUS_VARIANT[c.status]} data-status={c.status}>
            {c.status.replace('_', ' ')}
          </Badge>
          <span>
            {c.fileCount} file(s), {formatBytes(c.totalBytes)} from{' '}
            <Link className="underline-offset-2 hover:underline" href={sessionHref(c.instanceId)}>
              {c.configName} · {c.sandboxId.slice(0, 12)}
            </Link>{' '}
            at its {TRIGGER[c.trigger]} <RelativeTime iso={c.startedAt} />
          </span>
          {c.note ? <span className="w-full text-xs text-muted-foreground">{c.note}</span> : null}
        </li>
      ))}
    </ul>
  );
}

/** One page of collected files with sortable columns and a download per file. */
export function ArtifactsTable({
  data,
  pending,
  error,
  sort,
  onSort,
  onPage,
  filtered,
}: {
  data: ArtifactList | undefined;
  pending: boolean;
  error: unknown;
  sort: Sort;
  onSort: (s: Sort) => void;
  onPage: (offset: number) => void;
  filtered: boolean;
}) {
  const { allowed, why } = useCan('sandboxes.run');
  if (error) return <ErrorNote error={error} />;
  if (!pending && data && data.items.length === 0)
    return (
      <EmptyState icon={<FileArchive />} title={filtered ? 'No collected file matches' : 'No artifacts collected yet'}>
        {filtered
          ? 'Clear the search or the filters to see more.'
          : 'What a sandbox writes to /workspace/output is kept here when Skilldock recycles or removes it (a recycle, a skill update’s next-turn recycle, a remove, the idle sweep).'}
      </EmptyState>
    );
  const from = data ? data.offset + 1 : 0;
  const to = data ? data.offset + data.items.length : 0;
  return (
    <div className="grid gap-2">
      <Table aria-label="Collected artifacts">
        <THead>
          <TR>
            <SortHeader label="Name" field="name" sort={sort} onSort={onSort} />
            <SortHeader label="Path" field="path" sort={sort} onSort={onSort} />
            <SortHeader label="Size" field="size" sort={sort} onSort={onSort} />
            <SortHeader label="Collected" field="collectedAt" sort={sort} onSort={onSort} />
            <TH>Sandbox</TH>
            <TH>Owner</TH>
            <TH className="text-right">Download</TH>
          </TR>
        </THead>
        <TBody>
          {pending && !data ? (
            <SkeletonRows rows={3} cols={7} />
          ) : (
            data?.items.map((f) => (
              <TR key={f.id} data-artifact={f.path}>
                <TD className="font-medium">{f.name}</TD>
                <TD className="max-w-64 truncate" title={f.path}>
                  {f.path}
                </TD>
                <TD>{formatBytes(f.size)}</TD>
                <TD>
                  <span className="flex items-center gap-1.5">
                    <RelativeTime iso={f.collectedAt} />
                    <Badge variant="outline">{TRIGGER[f.trigger]}</Badge>
                  </span>
                </TD>
                <TD>
                  <Link className="underline-offset-2 hover:underline" href={sessionHref(f.instanceId)} title="Everything collected in this sandbox’s session">
                    {f.configName} · {f.instanceId.split('~')[1]?.slice(0, 12)}
                  </Link>
                </TD>
                <TD>{principalWords(f.principal ?? 'unknown')}</TD>
                <TD className="text-right">
                  {allowed ? (
                    <a
                      className={buttonVariants({ variant: 'ghost', size: 'sm' })}
                      href={artifactUrl(f.id)}
                      download={f.name}
                      aria-label={`Download ${f.path}`}
                    >
                      <Download aria-hidden />
                    </a>
                  ) : (
                    <Tip content={why}>
                      <span className="text-xs text-muted-foreground">needs a higher role</span>
                    </Tip>
                  )}
                </TD>
              </TR>
            ))
          )}
        </TBody>
      </Table>
      {data && data.total > data.limit ? (
        <div className="flex items-center justify-between text-sm text-muted-foreground">
          <span>
            {from}–{to} of {data.total}
          </span>
          <div className="flex gap-2">
            <Button size="sm" variant="outline" disabled={data.offset === 0} onClick={() => onPage(Math.max(0, data.offset - data.limit))}>
              Previous
            </Button>
            <Button size="sm" variant="outline" disabled={to >= data.total} onClick={() => onPage(data.offset + data.limit)}>
              Next
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
