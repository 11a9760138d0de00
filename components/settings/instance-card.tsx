'use client';

import { useQuery } from '@tanstack/react-query';
import { formatDuration, intervalToDuration } from 'date-fns';
import { RefreshCw } from 'lucide-react';
import { get } from '@/components/api';
import { accessApi } from '@/lib/api/contracts/access';
import { SettingsCardHeader } from '../forms/settings-form-card';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { cn } from '../ui/cn';
import { ErrorNote, Skeleton } from '../ui/misc';
import { exactTime, useNow } from '../ui/time';

function uptime(startedAt: string, now: number): string {
  const start = new Date(startedAt);
  if (now - start.getTime() < 60_000) return 'less than a minute';
  const d = intervalToDuration({ start, end: new Date(now) });
  return formatDuration(d, { format: ['years', 'months', 'days', 'hours', 'minutes'] }) || 'less than a minute';
}

function Item({ label, children, mono, wide }: { label: string; children: React.ReactNode; mono?: boolean; wide?: boolean }) {
  return (
    <div className={cn('grid min-w-0 content-start gap-1', wide && 'sm:col-span-2')}>
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className={cn('min-w-0 break-words text-sm', mono && 'font-mono text-[13px]')}>{children}</dd>
    </div>
  );
}

export function InstanceCard() {
  const q = useQuery({ queryKey: ['instance'], queryFn: ({ signal }) => get(accessApi.instance, { signal }), refetchInterval: 60_000 });
  const now = useNow();
  const i = q.data;
  return (
    <Card>
      <SettingsCardHeader title="Instance" description="This Skilldock process, its database, and the Docker engine it drives.">
        <Button variant="ghost" size="icon" aria-label="Refresh instance information" onClick={() => void q.refetch()} disabled={q.isFetching}>
          <RefreshCw className={cn(q.isFetching && 'animate-spin')} />
        </Button>
      </SettingsCardHeader>
      <CardContent>
        {q.error ? <ErrorNote error={q.error} className="mb-4" /> : null}
        {!i ? (
          q.isPending ? (
            <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3" role="status" aria-busy="true" aria-label="Loading instance information">
              {Array.from({ length: 9 }, (_, n) => (
                <div key={n} className="grid gap-1.5">
                  <Skeleton className="h-3 w-20" />
                  <Skeleton className="h-4 w-40" />
                </div>
              ))}
            </div>
          ) : null
        ) : (
          <dl className="grid gap-x-6 gap-y-5 sm:grid-cols-2 lg:grid-cols-3">
            <Item label="Version">
              {i.name} <span className="font-mono text-[13px]">{i.version}</span>
            </Item>
            <Item label="Node.js" mono>
              {i.node}
            </Item>
            <Item label="Platform" mono>
              {i.platform}
            </Item>
            <Item label="Host" mono>
              {i.hostname}
            </Item>
            <Item label="Uptime">
              <span title={`Started ${exactTime(i.startedAt)}`}>{uptime(i.startedAt, now)}</span>
            </Item>
            <Item label="Database">
              <Badge variant="secondary" className="mr-2 font-mono">
                {i.database.kind}
              </Badge>
              <span className="font-mono text-[13px] break-all">{i.database.location}</span>
            </Item>
            <Item label="Data directory" mono>
              <span className="break-all">{i.dataDir}</span>
            </Item>
            <Item label="Docker endpoint" wide>
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-mono text-[13px] break-all">{i.docker.endpoint}</span>
                {i.docker.reachable ? (
                  <Badge variant="success" data-testid="docker-status">
                    <span className="size-1.5 rounded-full bg-success" aria-hidden /> Reachable
                  </Badge>
                ) : (
                  <Badge variant="destructive" data-testid="docker-status">
                    <span className="size-1.5 rounded-full bg-destructive" aria-hidden /> Unreachable
                  </Badge>
                )}
              </div>
              <p className="mt-1 text-xs text-muted-foreground">
                {i.docker.reachable
                  ? `Docker ${i.docker.version ?? 'unknown version'} · API ${i.docker.apiVersion ?? '?'}${i.docker.os ? ` · ${i.docker.os}/${i.docker.arch}` : ''}`
                  : `${i.docker.error ?? 'No answer'}. Sandboxes need a reachable engine; set DOCKER_HOST to use another one.`}
              </p>
            </Item>
            <Item label="Job worker">
              {i.worker ? (
                <>
                  <span className="font-mono text-[13px] break-all">{i.worker.id}</span>
                  <p className="mt-1 text-xs text-muted-foreground">
                    {i.worker.running} of {i.worker.concurrency} slots busy · lease {Math.round(i.worker.leaseMs / 1000)} s
                  </p>
                </>
              ) : (
                <span className="text-muted-foreground">No worker runs in this process; jobs wait for another replica.</span>
              )}
            </Item>
            <Item label="Replica">
              <span className="font-mono text-[13px] break-all">{i.replica.id}</span>
              <p className="mt-1 text-xs text-muted-foreground">Installation {i.replica.installationId}</p>
            </Item>
            <Item label="Network enforcement">
              <span className="text-sm">{i.networkEnforcement ?? 'Not enforced by this server.'}</span>
            </Item>
          </dl>
        )}
      </CardContent>
    </Card>
  );
}
