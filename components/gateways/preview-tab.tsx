'use client';

import { useQuery } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { syncGatewayAction } from '@/app/(console)/gateways/actions';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { CopyButton } from '../ui/copy-button';
import { RetryableError, Skeleton, Tip } from '../ui/misc';
import { callAction } from '../use-operation';
import { useCan } from '../viewer';
import { type Gateway, plural, type SyncPlan } from './view';

function List({ title, items, testId }: { title: string; items: string[]; testId: string }) {
  if (!items.length) return null;
  return (
    <div className="grid gap-1">
      <h3 className="text-sm font-medium">{title}</h3>
      <ul className="grid gap-0.5 text-sm" data-testid={testId}>
        {items.map((c) => (
          <li key={c} className="break-words font-mono text-xs">
            {c}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The sync's dry run: config keys it would change, skill folders it would write or remove, conflicts, and the patch of a read-only gateway. */
export function PreviewTab({ gateway }: { gateway: Gateway }) {
  const can = useCan('gateways.write');
  const plan = useQuery({
    queryKey: ['gateways', 'dry-run', gateway.id, gateway.revision],
    queryFn: async () => (await callAction(syncGatewayAction, { params: { id: gateway.id }, query: { dryRun: 'true' } })) as SyncPlan,
    enabled: can.allowed,
    retry: false,
    gcTime: 0,
  });
  const p = plan.data;
  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="grid gap-1">
            <CardTitle>Preview sync</CardTitle>
            <CardDescription>What a sync would write now, read fresh from the gateway. Nothing is changed.</CardDescription>
          </div>
          <Tip content={can.why}>
            <Button variant="outline" size="sm" disabled={!can.allowed || plan.isFetching} onClick={() => void plan.refetch()}>
              <RefreshCw aria-hidden /> Refresh
            </Button>
          </Tip>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4" data-testid="sync-preview">
        {!can.allowed ? (
          <p className="text-sm text-muted-foreground">{can.why} A dry run reads the gateway's config like a sync.</p>
        ) : plan.error ? (
          <RetryableError error={plan.error} onRetry={() => void plan.refetch()} />
        ) : !p ? (
          <Skeleton className="h-24 w-full" />
        ) : (
          <>
            <p className="text-sm" data-testid="sync-preview-count">
              {p.changes ? `${plural(p.changes, 'change')} to write` : 'Nothing to change: the gateway already matches Skilldock.'}
              {p.readOnly ? (
                <Badge variant="warning" className="ml-2">
                  read-only gateway
                </Badge>
              ) : null}
            </p>
            <List title="Config changes" items={p.configChanges} testId="sync-config-changes" />
            {p.folders.length ? (
              <div className="grid gap-1">
                <h3 className="text-sm font-medium">Skill folders</h3>
                <ul className="grid gap-0.5 text-sm">
                  {p.folders.map((f) => (
                    <li key={`${f.op}-${f.name}`} className="flex flex-wrap items-center gap-2">
                      <Badge variant={f.op === 'write' ? 'default' : 'destructive'}>{f.op}</Badge>
                      <span className="font-mono text-xs">{f.name}</span>
                      <span className="text-xs text-muted-foreground">{f.why}</span>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            <List title="Conflicts" items={p.conflicts} testId="sync-conflicts" />
            <List title="Notes" items={p.notes} testId="sync-notes" />
            {p.readOnly && p.patch ? (
              <div className="grid gap-1">
                <div className="flex items-center justify-between gap-2">
                  <h3 className="text-sm font-medium">Config patch for your deployment system</h3>
                  <CopyButton value={p.patch} label="Copy the patch" />
                </div>
                <pre className="max-h-80 overflow-auto rounded-md border bg-muted/40 p-2 font-mono text-xs" data-testid="sync-patch">
                  {p.patch}
                </pre>
              </div>
            ) : null}
          </>
        )}
      </CardContent>
    </Card>
  );
}
