'use client';

import { ArrowLeft, SearchX } from 'lucide-react';
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { ApiError } from '../api';
import { AgentGatewaysCard } from '../gateways/agent-gateways-card';
import { PageHeader } from '../shell/shell';
import { Badge } from '../ui/badge';
import { buttonVariants } from '../ui/button';
import { EmptyState, RetryableError, Skeleton } from '../ui/misc';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../ui/tabs';
import { AgentEditor } from './agent-editor';
import { AgentEnvCard } from './agent-env-card';
import { AgentPolicyCard } from './agent-policy-card';
import { BudgetTab } from './budget-tab';
import { EffectiveTab } from './effective-tab';
import { useAgent, useExplain, useMatrix } from './queries';

const TABS = ['settings', 'policy', 'effective', 'prompt'] as const;
type Tab = (typeof TABS)[number];

/** /agents/[id]: the agent's settings, its exec policy, its effective skills with their traces, and its budget planner with the rendered catalog. */
export function AgentDetailPage({ id }: { id: string }) {
  const agent = useAgent(id);
  const explain = useExplain(id);
  const matrix = useMatrix();
  const params = useSearchParams();
  const pathname = usePathname();
  const [tab, setTabState] = useState<Tab>(() => ((TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as Tab) : 'settings'));
  const setTab = (t: Tab) => {
    setTabState(t);
    window.history.replaceState(window.history.state, '', t === 'settings' ? pathname : `${pathname}?tab=${t}`);
  };
  if (agent.error && !agent.data) {
    if (agent.error instanceof ApiError && (agent.error.status === 404 || agent.error.status === 400))
      return (
        <EmptyState
          icon={<SearchX />}
          title="No such agent"
          action={
            <Link href="/agents" className={buttonVariants({ variant: 'outline' })}>
              Back to the agents
            </Link>
          }
        >
          It may have been deleted. Gateways asking for it get no skills.
        </EmptyState>
      );
    return <RetryableError error={agent.error} onRetry={() => void agent.refetch()} />;
  }
  const a = agent.data;
  const known = matrix.data ? new Set(matrix.data.skills.map((s) => s.name)) : null;
  return (
    <>
      <Link href="/agents" className="mb-2 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft aria-hidden className="size-4" /> Agents
      </Link>
      <PageHeader
        title={a?.name ?? id}
        description={a?.description || `Agent ${id}`}
        actions={
          a ? (
            <div className="flex flex-wrap gap-1">
              <Badge variant="outline" className="font-mono">
                {a.id}
              </Badge>
              <Badge variant={a.inheritsDefaults ? 'secondary' : 'default'} data-testid="detail-scope">
                {a.inheritsDefaults ? 'inherits defaults' : a.skills?.length ? `own list · ${a.skills.length}` : 'no skills'}
              </Badge>
            </div>
          ) : null
        }
      />
      {a?.warnings.length ? (
        <ul className="mb-4 grid gap-1 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm" aria-label="Warnings">
          {a.warnings.slice(0, 3).map((w) => (
            <li key={w}>{w}</li>
          ))}
          {a.warnings.length > 3 ? <li>…and {a.warnings.length - 3} more names no known skill has.</li> : null}
        </ul>
      ) : null}
      {a ? <AgentGatewaysCard agentId={a.id} /> : null}
      <Tabs value={tab} onValueChange={(v) => setTab(v as Tab)}>
        <TabsList aria-label="Agent sections" className="mb-4">
          <TabsTrigger value="settings" data-testid="agent-tab-settings">
            Settings
          </TabsTrigger>
          <TabsTrigger value="policy" data-testid="agent-tab-policy">
            Exec policy
          </TabsTrigger>
          <TabsTrigger value="effective" data-testid="agent-tab-effective">
            Effective skills
          </TabsTrigger>
          <TabsTrigger value="prompt" data-testid="agent-tab-prompt">
            Budget &amp; prompt
          </TabsTrigger>
        </TabsList>
        <TabsContent value="settings">
          {a && explain.data ? (
            <div className="grid gap-4">
              <AgentEditor agent={a} known={known} fallbackBudget={explain.data.budget} onReload={async () => (await agent.refetch()).data} />
              <AgentEnvCard agentId={a.id} configId={a.sandboxConfigId} />
            </div>
          ) : (
            <Skeleton className="h-96 w-full" />
          )}
        </TabsContent>
        <TabsContent value="policy">
          {a ? <AgentPolicyCard agent={a} onReload={async () => (await agent.refetch()).data} /> : <Skeleton className="h-96 w-full" />}
        </TabsContent>
        <TabsContent value="effective">
          <EffectiveTab agentId={id} />
        </TabsContent>
        <TabsContent value="prompt">
          <BudgetTab agentId={id} />
        </TabsContent>
      </Tabs>
    </>
  );
}
