'use client';

import { ArrowDownToLine, Copy, Download, RefreshCw, Search, WrapText } from 'lucide-react';
import { useDeferredValue, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Button, buttonVariants } from '../ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card';
import { cn } from '../ui/cn';
import { copyText } from '../ui/copy-button';
import { Input } from '../ui/input';
import { ErrorNote } from '../ui/misc';
import { formatCount } from './format';
import { type LogStore, MAX_LINES } from './log-store';
import { LogView } from './log-view';
import type { StreamStatus } from './use-job-stream';
import { isFinal, type JobState } from './view';

const STATUS_TEXT: Record<StreamStatus, string> = {
  connecting: 'Connecting…',
  live: 'Following live',
  reconnecting: 'Reconnecting…',
  ended: 'Complete',
  error: 'Disconnected',
};

/** Indexes of the lines that contain the filter text, extended as lines arrive. */
function useFilterIndex(store: LogStore, filter: string, version: number): number[] | null {
  const cache = useRef<{ q: string; epoch: number; scanned: number; hits: number[] }>({ q: '', epoch: 0, scanned: 0, hits: [] });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the store is mutable; `version` is what says it grew
  return useMemo(() => {
    const q = filter.toLowerCase();
    if (!q) return null;
    let c = cache.current;
    if (c.q !== q || c.epoch !== store.epoch) c = cache.current = { q, epoch: store.epoch, scanned: 0, hits: [] };
    const lines = store.lines;
    for (let i = c.scanned; i < lines.length; i++) if (lines[i].line.toLowerCase().includes(q)) c.hits.push(i);
    c.scanned = lines.length;
    return c.hits;
  }, [store, filter, version]); // `version` changes when lines were appended to the store
}

/** The job's live log: filter, follow, copy, download; rendered virtualized so long logs stay smooth. */
export function JobLog({
  jobId,
  jobState,
  stream,
}: {
  jobId: string;
  jobState: JobState | undefined;
  stream: { store: LogStore; count: number; status: StreamStatus; error: string | null; reconnect: () => void };
}) {
  const { store, count, status, error, reconnect } = stream;
  const [filter, setFilter] = useState('');
  const [follow, setFollow] = useState(true);
  const [wrap, setWrap] = useState(false);
  const deferred = useDeferredValue(filter.trim());
  const hits = useFilterIndex(store, deferred, count);
  const held = store.lines.length;
  const rows = hits ? hits.length : held;
  const line = (i: number) => store.lines[hits ? hits[i] : i];
  const download = `/api/v1/jobs/${encodeURIComponent(jobId)}/logs?format=text`;

  const copy = () =>
    copyText(store.text()).then(
      () => toast.success(`Copied ${formatCount(held)} ${held === 1 ? 'line' : 'lines'}`),
      (e: Error) => toast.error('Could not copy the log', { description: e.message }),
    );

  const empty = hits
    ? `No line contains “${deferred}”.`
    : status === 'error'
      ? 'The log could not be loaded.'
      : status === 'ended'
        ? 'This job wrote no log lines.'
        : jobState && isFinal(jobState)
          ? 'Loading the log…'
          : jobState === 'queued'
            ? 'Waiting for the job to start…'
            : 'Waiting for output…';

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <CardTitle>Log</CardTitle>
          <span className="inline-flex items-center gap-1.5 text-xs text-muted-foreground" role="status">
            <span
              aria-hidden
              className={cn(
                'size-2 rounded-full',
                status === 'live'
                  ? 'bg-success'
                  : status === 'ended'
                    ? 'bg-muted-foreground'
                    : status === 'error'
                      ? 'bg-destructive'
                      : 'animate-pulse bg-warning motion-reduce:animate-none',
              )}
            />
            {STATUS_TEXT[status]}
          </span>
          <span className="text-xs text-muted-foreground" style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="log-line-count">
            {formatCount(held + store.dropped)} {held + store.dropped === 1 ? 'line' : 'lines'}
            {hits ? ` · ${formatCount(hits.length)} matching` : ''}
          </span>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <div className="relative">
            <Search aria-hidden className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
            <Input
              type="search"
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
              placeholder="Show lines containing…"
              aria-label="Show only lines containing"
              className="h-8 w-56 pl-8"
            />
          </div>
          <Button
            variant={follow ? 'secondary' : 'outline'}
            size="sm"
            aria-pressed={follow}
            onClick={() => setFollow((f) => !f)}
            title="Keep the newest line in view"
          >
            <ArrowDownToLine aria-hidden /> Follow
          </Button>
          <Button variant={wrap ? 'secondary' : 'outline'} size="sm" aria-pressed={wrap} onClick={() => setWrap((w) => !w)} title="Wrap long lines">
            <WrapText aria-hidden /> Wrap
          </Button>
          <Button variant="outline" size="sm" onClick={() => void copy()} disabled={!held}>
            <Copy aria-hidden /> Copy
          </Button>
          <a
            href={download}
            download
            role="button"
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
            onKeyDown={(e) => {
              if (e.key === ' ') {
                e.preventDefault();
                e.currentTarget.click();
              }
            }}
          >
            <Download aria-hidden /> Download
          </a>
        </div>
      </CardHeader>
      <CardContent className="grid gap-2">
        {error ? (
          <div className="flex flex-wrap items-center gap-2">
            <ErrorNote error={error} className="flex-1" />
            <Button variant="outline" size="sm" onClick={reconnect}>
              <RefreshCw aria-hidden /> Reconnect
            </Button>
          </div>
        ) : null}
        {store.dropped ? (
          <p className="text-xs text-muted-foreground">
            Showing the last {formatCount(MAX_LINES)} lines; {formatCount(store.dropped)} older lines are only in the download.
          </p>
        ) : null}
        <LogView rows={rows} line={line} version={count} filter={deferred} follow={follow} onFollowChange={setFollow} empty={empty} wrap={wrap} />
      </CardContent>
    </Card>
  );
}
