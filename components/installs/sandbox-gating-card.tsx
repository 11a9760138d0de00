'use client';

import { CircleCheck, CircleHelp, CircleX, RefreshCw } from 'lucide-react';
import type { ConfigGatingOut } from '@/lib/installs/gating/schema';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { RetryableError, Skeleton } from '../ui/misc';
import { useSandboxGating } from './queries';

function verdict(c: ConfigGatingOut) {
  if (c.eligible === null) return { label: 'unknown', variant: 'secondary' as const, Icon: CircleHelp, state: 'unknown' };
  return c.eligible
    ? { label: 'ready', variant: 'success' as const, Icon: CircleCheck, state: 'ready' }
    : { label: 'not ready', variant: 'destructive' as const, Icon: CircleX, state: 'blocked' };
}

/** The skill's gating in each Docker sandbox config's image, beside its verdict on the host. */
export function SandboxGatingCard({ skillId }: { skillId: string }) {
  const q = useSandboxGating(skillId);
  const host = q.data?.host;
  const hostWords = host ? (host.eligible ? 'ready on host' : `not ready on host (${host.reasons.join('; ')})`) : '';
  return (
    <Card data-testid="sandbox-gating">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <CardTitle>In sandboxes</CardTitle>
          <CardDescription>Whether the skill’s requirements hold inside each sandbox config’s image (its programs are probed once per image).</CardDescription>
        </div>
        <Button size="sm" variant="ghost" onClick={() => void q.refetch()} disabled={q.isFetching} aria-label="Check the sandbox images again">
          <RefreshCw aria-hidden className={q.isFetching ? 'animate-spin motion-reduce:animate-none' : undefined} /> Check again
        </Button>
      </CardHeader>
      <CardContent>
        {q.isPending ? (
          <div className="grid gap-2" role="status" aria-busy="true" aria-label="Probing the sandbox images">
            <Skeleton className="h-10 w-full" />
          </div>
        ) : q.error ? (
          <RetryableError error={q.error} onRetry={() => void q.refetch()} />
        ) : q.data.configs.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No Docker sandbox config yet: create one on the Sandboxes page to see whether this skill can run there.
          </p>
        ) : (
          <ul className="grid divide-y">
            {q.data.configs.map((c) => {
              const v = verdict(c);
              return (
                <li key={c.configId} className="grid gap-1 py-2.5 text-sm" data-testid={`sandbox-gating-${c.configName}`} data-state={v.state}>
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{c.configName}</span>
                    <Badge variant={v.variant}>
                      <v.Icon aria-hidden className="size-3.5" /> {v.label}
                    </Badge>
                    {c.installState ? <Badge variant="outline">installed: {c.installState}</Badge> : null}
                  </div>
                  <p className="text-muted-foreground" data-testid="sandbox-gating-summary">
                    {hostWords}
                    {c.error
                      ? `; could not probe sandbox ${c.configName}: ${c.error}`
                      : c.eligible
                        ? `; ready in sandbox ${c.configName}`
                        : `; ${c.reasons.join('; ')}`}
                  </p>
                  {c.missingBins.length ? (
                    <p className="text-xs text-muted-foreground">
                      Missing in the image:{' '}
                      {c.missingBins.map((b, k) => (
                        <span key={b}>
                          {k ? ', ' : ''}
                          <code>{b}</code>
                        </span>
                      ))}
                      {c.installState ? '' : ' — installing the skill into this config installs what its install specs provide.'}
                    </p>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
