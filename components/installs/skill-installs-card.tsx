'use client';

import { Boxes, PackagePlus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { EmptyState, RetryableError, Skeleton, Tip } from '../ui/misc';
import { RelativeTime } from '../ui/time';
import { useCan } from '../viewer';
import { ver } from './format';
import { InstallIntoDialog } from './install-into-dialog';
import { InstallActions } from './install-row-actions';
import { InstallStatus } from './install-status';
import { useSkillInstalls } from './queries';

/** The skill page's card: where this catalog skill is installed, one row per sandbox config. */
export function SkillInstallsCard({ skillKey, skillName, managed }: { skillKey: string; skillName: string; managed: boolean }) {
  const q = useSkillInstalls(skillKey, managed);
  const { allowed, why } = useCan('sandboxes.write');
  const [picking, setPicking] = useState(false);
  const items = q.data?.items ?? [];
  return (
    <Card data-testid="installs-card">
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <CardTitle>Installations</CardTitle>
          <CardDescription>The sandbox configs this skill is installed into, and what their agents get.</CardDescription>
        </div>
        {managed ? (
          <Tip content={why}>
            <Button size="sm" disabled={!allowed} onClick={() => setPicking(true)} data-testid="install-into-button">
              <PackagePlus aria-hidden /> Install into…
            </Button>
          </Tip>
        ) : null}
      </CardHeader>
      <CardContent>
        {!managed ? (
          <EmptyState icon={<Boxes />} title="Installs need a catalog skill">
            Only skills imported into the catalog can be installed into sandboxes. Import this skill (from ClawHub, GitHub or an upload) to install it.
          </EmptyState>
        ) : q.isPending ? (
          <div className="grid gap-2" role="status" aria-busy="true" aria-label="Loading the installations">
            <Skeleton className="h-14 w-full" />
            <Skeleton className="h-14 w-full" />
          </div>
        ) : q.error ? (
          <RetryableError error={q.error} onRetry={() => void q.refetch()} />
        ) : items.length === 0 ? (
          <EmptyState icon={<Boxes />} title="Not installed in any sandbox config">
            Install it into one or more configs; each gets a new snapshot image with the skill and its dependencies.
          </EmptyState>
        ) : (
          <ul className="grid divide-y">
            {items.map((i) => (
              <li
                key={i.id}
                className="grid gap-2 py-3 sm:grid-cols-[minmax(8rem,12rem)_1fr_auto] sm:items-start"
                data-testid={`install-row-${i.configName}`}
                data-state={i.state}
              >
                <div className="grid min-w-0 gap-0.5">
                  <span className="truncate font-medium">{i.configName}</span>
                  <span className="text-xs text-muted-foreground">
                    {ver(i.version)}
                    {i.imageGeneration !== null ? ` · image gen ${i.imageGeneration}` : ''} · <RelativeTime iso={i.updatedAt} />
                  </span>
                </div>
                <InstallStatus install={i} />
                <InstallActions install={i} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      {picking ? <InstallIntoDialog skillKey={skillKey} skillName={skillName} installs={items} onClose={() => setPicking(false)} /> : null}
    </Card>
  );
}
