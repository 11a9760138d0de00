'use client';

import { useQuery } from '@tanstack/react-query';
import { FlaskConical } from 'lucide-react';
import Link from 'next/link';
import type { z } from 'zod';
import { get } from '@/components/api';
import { policyApi } from '@/lib/api/contracts/policy';
import type { agentPolicyOut } from '@/lib/api/policy-schemas';
import { DENY_GROUPS } from '@/lib/policy/types';
import { groupModes } from '../policy/deny-groups-field';
import { useDenyGroups } from '../policy/queries';
import { GROUP_MODE_LABEL, profileLabel } from '../policy/view';
import { Badge } from '../ui/badge';
import { buttonVariants } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { RetryableError, Skeleton } from '../ui/misc';

export type AgentPolicyView = z.output<typeof agentPolicyOut>;

/** Under the agents key, so every agent write refetches it. */
export function useAgentPolicy(id: string) {
  return useQuery({
    queryKey: ['agents', 'exec-policy', id],
    queryFn: ({ signal }) => get(policyApi.agentPolicy, { params: { id }, signal }),
  });
}

export const testerHref = (agentId: string) => `/policy/tester?${new URLSearchParams({ profile: `agent:${agentId}` })}`;

const MODE_VARIANT = { deny: 'destructive', approval: 'warning', off: 'secondary' } as const;
const onOff = (b: boolean) => (b ? 'on' : 'off');

/** The rules the gateway's exec decides this agent's commands with: its saved profile with its saved overrides on top. */
export function AgentPolicyEffective({ agentId, unsaved }: { agentId: string; unsaved: boolean }) {
  const q = useAgentPolicy(agentId);
  const groups = useDenyGroups();
  const p = q.data;
  const modes = p && groups.data ? groupModes(p.rules.denyGroups, groups.data.items) : null;
  const over = p?.overrides ?? {};
  // Each overridden deny group counts as one setting.
  const count = Object.keys(over).filter((k) => k !== 'denyGroups').length + Object.keys(over.denyGroups ?? {}).length;
  const mark = (k: keyof typeof over) => (k in over ? <span className="ml-1 text-xs text-primary">(override)</span> : null);
  const rows: [keyof typeof over, string, string][] = p
    ? [
        ['allowedCommands', 'Allowed commands', p.rules.allowedCommands.includes('*') ? 'any (*)' : `only ${p.rules.allowedCommands.length}`],
        ['blockHighRisk', 'Block high-risk', onOff(p.rules.blockHighRisk)],
        ['approvalForMedium', 'Ask before medium-risk', onOff(p.rules.approvalForMedium)],
        ['preChecks', 'Pre-checks', onOff(p.rules.preChecks)],
        ['blockInterpreterArgs', 'Block inline interpreter args', onOff(p.rules.blockInterpreterArgs)],
        ['inlineCode', 'Inline code', p.rules.inlineCode],
        ['workspaceOnly', 'Workspace only', p.rules.workspaceOnly ? `on (${p.rules.workspaceRoot})` : 'off'],
        ['forbiddenPaths', 'Forbidden paths', String(p.rules.forbiddenPaths.length)],
        ['writeThenRun', 'Write-then-run', p.rules.writeThenRun],
      ]
    : [];
  return (
    <Card data-testid="agent-policy-effective">
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="grid gap-1">
            <CardTitle>Effective rules</CardTitle>
            <CardDescription>
              What the gateway&apos;s exec decides this agent&apos;s commands with{unsaved ? ' — the saved rules; save to apply your edits' : ''}.
            </CardDescription>
          </div>
          <Link href={testerHref(agentId)} className={buttonVariants({ variant: 'outline', size: 'sm' })} data-testid="agent-policy-tester-link">
            <FlaskConical aria-hidden /> Test a command as this agent
          </Link>
        </div>
      </CardHeader>
      <CardContent className="grid gap-3">
        {q.error ? (
          <RetryableError error={q.error} onRetry={() => void q.refetch()} />
        ) : groups.error ? (
          <RetryableError error={groups.error} onRetry={() => void groups.refetch()} />
        ) : !p || !modes ? (
          <Skeleton className="h-48 w-full" />
        ) : (
          <>
            <p className="text-sm" data-testid="effective-profile" data-profile={p.profile}>
              Profile <span className="font-mono font-medium">{profileLabel(p.profile)}</span>
              {count ? ` with ${count} setting${count === 1 ? '' : 's'} overridden for this agent` : ', no overrides'}
            </p>
            <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
              {rows.map(([k, label, v]) => (
                <div key={k} className="contents" data-rule-field={k}>
                  <dt className="text-muted-foreground">{label}</dt>
                  <dd className="font-mono" data-value={v}>
                    {v}
                    {mark(k)}
                  </dd>
                </div>
              ))}
            </dl>
            <ul className="flex flex-wrap gap-1.5" aria-label="Effective deny groups">
              {DENY_GROUPS.map((g) => {
                const mode = modes[g];
                const own = over.denyGroups?.[g] !== undefined;
                return (
                  <li key={g} data-effective-group={g} data-mode={mode} data-override={String(own)}>
                    <Badge
                      variant={MODE_VARIANT[mode]}
                      title={own ? 'Overridden for this agent' : 'From the profile'}
                      className={own ? 'ring-1 ring-primary' : ''}
                    >
                      <span className="font-mono">{g}</span> {GROUP_MODE_LABEL[mode]}
                    </Badge>
                  </li>
                );
              })}
            </ul>
          </>
        )}
      </CardContent>
    </Card>
  );
}
