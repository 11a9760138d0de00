'use client';

import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, SearchX } from 'lucide-react';
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { ApiError } from '../api';
import { JobLogDrawer } from '../jobs/job-log-drawer';
import { PageHeader } from '../shell/shell';
import { Badge } from '../ui/badge';
import { buttonVariants } from '../ui/button';
import { EmptyState, RetryableError, Skeleton } from '../ui/misc';
import { TabCount, Tabs, TabsContent, TabsList, TabsTrigger } from '../ui/tabs';
import { AdoptTab } from './adopt-tab';
import { AgentsTab } from './agents-tab';
import { GatewayActions } from './gateway-actions';
import { PreviewTab } from './preview-tab';
import { invalidateGateways, useGateway, useGateways } from './queries';
import { SettingsTab } from './settings-tab';
import { DriftBadge, LastSync, StatusBadge } from './status-badges';
import { SyncJobs } from './sync-jobs';
import { LOCATION_LABELS, locationText, locationType } from './view';

const TABS = ['agents', 'preview', 'adopt', 'settings'] as const;
type Tab = (typeof TABS)[number];

/** /gateways/[id]: status and the header's actions, then the linked agents with their drift, the sync preview, adoption and settings. */
export function GatewayDetailPage({ id }: { id: string }) {
  const gw = useGateway(id);
  const list = useGateways();
  const qc = useQueryClient();
  const params = useSearchParams();
  const pathname = usePathname();
  const [following, setFollowing] = useState<string | null>(null);
  const [tab, setTabState] = useState<Tab>(() => ((TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as Tab) : 'agents'));
  const setTab = (t: Tab) => {
    setTabState(t);
    window.history.replaceState(window.history.state, '', t === 'agents' ? pathname : `${pathname}?tab=${t}`);
  };
  if (gw.error && !gw.data) {
    if (gw.error instanceof ApiError && (gw.error.status === 404 || gw.error.status === 400))
      return (
        <EmptyState
          icon={<SearchX />}
          title="No such gateway"
          action={
            <Link href="/gateways" className={buttonVariants({ variant: 'outline' })}>
              Back to the gateways
            </Link>
          }
        >
          It may have been disconnected.
        </EmptyState>
      );
    return <RetryableError error={gw.error} onRetry={() => void gw.refetch()} />;
  }
  const g = gw.data;
  return (
    <>
      <Link href="/gateways" className="mb-2 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft aria-hidden className="size-4" /> Gateways
      </Link>
      <PageHeader
        title={g?.name ?? id}
        description={g ? `${LOCATION_LABELS[locationType(g.location)]} · ${locationText(g.location)}` : undefined}
        actions={g ? <GatewayActions gateway={g} onJob={setFollowing} /> : null}
      />
      {!g ? (
        <Skeleton className="h-96 w-full" />
      ) : (
        <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm" data-testid="gateway-facts">
            <StatusBadge status={g.status} />
            {g.status?.version ? <span className="font-mono text-xs">OpenClaw {g.status.version}</span> : null}
            {g.status?.error ? <span className="text-xs text-destructive">{g.status.error}</span> : null}
            <span className="inline-flex items-center gap-1.5">
              Drift <DriftBadge drift={g.drift} />
            </span>
            <span className="inline-flex items-center gap-1.5">
              Last sync <LastSync sync={g.lastSync} />
            </span>
            <Badge variant={g.autoSync ? 'default' : 'secondary'}>{g.autoSync ? 'syncs on every change' : 'manual sync'}</Badge>
          </div>
          {g.lastSync && !g.lastSync.ok ? <p className="text-sm text-destructive">The last sync failed: {g.lastSync.message}</p> : null}
          <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)}>
            <TabsList aria-label="Gateway sections" className="mb-4">
              <TabsTrigger value="agents" data-testid="gateway-tab-agents">
                Agents <TabCount n={g.agentIds.length} />
              </TabsTrigger>
              <TabsTrigger value="preview" data-testid="gateway-tab-preview">
                Preview sync
              </TabsTrigger>
              <TabsTrigger value="adopt" data-testid="gateway-tab-adopt">
                Adopt
              </TabsTrigger>
              <TabsTrigger value="settings" data-testid="gateway-tab-settings">
                Settings
              </TabsTrigger>
            </TabsList>
            <TabsContent value="agents">
              <AgentsTab gateway={g} />
            </TabsContent>
            <TabsContent value="preview">
              <PreviewTab gateway={g} />
            </TabsContent>
            <TabsContent value="adopt">
              <AdoptTab gateway={g} />
            </TabsContent>
            <TabsContent value="settings">
              <SettingsTab key={g.revision} gateway={g} roots={list.data?.roots ?? []} />
            </TabsContent>
          </Tabs>
          <SyncJobs gatewayId={g.id} onOpen={setFollowing} />
        </div>
      )}
      {following ? (
        <JobLogDrawer
          jobId={following}
          open
          onOpenChange={(o) => !o && setFollowing(null)}
          actions
          onRetried={(j) => setFollowing(j.id)}
          onEnded={() => invalidateGateways(qc)}
          doneNote="Done. The gateway's last sync and drift above refresh to show it."
        />
      ) : null}
    </>
  );
}
