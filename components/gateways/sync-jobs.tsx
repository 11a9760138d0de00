'use client';

import { StateChip } from '../jobs/state-chip';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Skeleton } from '../ui/misc';
import { RelativeTime } from '../ui/time';
import { useGatewayJobs } from './queries';

/** This gateway's recent syncs and verifications (including those queued on their own after a change); each opens in the log drawer. */
export function SyncJobs({ gatewayId, onOpen }: { gatewayId: string; onOpen: (jobId: string) => void }) {
  const jobs = useGatewayJobs(gatewayId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent syncs</CardTitle>
        <CardDescription>Syncs run as jobs; after a sync that changed something the gateway is asked what its agents see.</CardDescription>
      </CardHeader>
      <CardContent>
        {!jobs.data ? (
          <Skeleton className="h-16 w-full" />
        ) : jobs.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">No sync yet.</p>
        ) : (
          <ul className="grid gap-1" aria-label="Recent sync jobs" data-testid="gateway-jobs">
            {jobs.data.map((j) => (
              <li key={j.id} className="flex flex-wrap items-center gap-2 text-sm" data-testid="gateway-job" data-kind={j.kind} data-state={j.state}>
                <StateChip state={j.state} />
                <Button variant="link" size="sm" className="h-auto px-0" onClick={() => onOpen(j.id)}>
                  {j.title}
                </Button>
                <RelativeTime iso={j.createdAt} className="ml-auto text-xs text-muted-foreground" />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
