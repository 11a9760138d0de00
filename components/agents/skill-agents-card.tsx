'use client';

import Link from 'next/link';
import { useState } from 'react';
import { ApiError } from '../api';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { RetryableError, Skeleton } from '../ui/misc';
import { useSkillAgents } from './queries';
import { STEP_LABELS } from './view';

const SHOWN = 10;

/** On a skill's page: the agents that can use it, and for the others the rule or step that keeps it out. */
export function SkillAgentsCard({ skillName }: { skillName: string }) {
  const q = useSkillAgents(skillName);
  const [all, setAll] = useState(false);
  // Agents that get the skill first, then the blocked ones; a long list is cut until asked for.
  const items = q.data ? [...q.data.items].sort((a, b) => Number(b.effective) - Number(a.effective)) : [];
  const shown = all ? items : items.slice(0, SHOWN);
  return (
    <Card data-testid="skill-agents">
      <CardHeader>
        <CardTitle>Agents that can use this skill</CardTitle>
        <CardDescription>
          {q.data
            ? `${q.data.usable} of ${q.data.items.length} agent${q.data.items.length === 1 ? '' : 's'} get it in their prompt.`
            : 'Which agents get it, and what blocks it for the others.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {q.isPending ? (
          <Skeleton className="h-12 w-full" />
        ) : q.error ? (
          q.error instanceof ApiError && q.error.status === 404 ? (
            <p className="text-sm text-muted-foreground">This skill is not in the catalog now, so no agent gets it.</p>
          ) : (
            <RetryableError error={q.error} onRetry={() => void q.refetch()} />
          )
        ) : q.data.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            No agents yet.{' '}
            <Link href="/agents" className="underline">
              Create one
            </Link>{' '}
            to decide which skills it may use.
          </p>
        ) : (
          <ul className="grid divide-y">
            {shown.map((i) => (
              <li
                key={i.agentId}
                className="flex flex-wrap items-start gap-2 py-2 text-sm"
                data-testid={`skill-agent-${i.agentId}`}
                data-effective={i.effective}
              >
                <Link href={`/agents/${encodeURIComponent(i.agentId)}?tab=effective`} className="font-medium hover:underline">
                  {i.agentName}
                </Link>
                {i.effective ? (
                  <Badge variant="success">can use it</Badge>
                ) : i.excluded ? (
                  <Badge variant="secondary">blocked by its list</Badge>
                ) : (
                  <Badge variant="destructive">blocked: {STEP_LABELS[i.failedAt ?? 'found'].toLowerCase()}</Badge>
                )}
                <span className="basis-full text-muted-foreground">{i.effective ? i.rule : i.excluded ? i.rule : (i.reason ?? i.rule)}</span>
              </li>
            ))}
          </ul>
        )}
        {items.length > shown.length ? (
          <Button variant="outline" size="sm" className="mt-2" onClick={() => setAll(true)}>
            Show all {items.length} agents
          </Button>
        ) : null}
      </CardContent>
    </Card>
  );
}
