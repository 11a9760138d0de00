'use client';

import Link from 'next/link';
import { Badge } from '../ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { EmptyState } from '../ui/misc';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { RelativeTime } from '../ui/time';
import type { DriftAgent, Gateway } from './view';

function Side({ visible, why }: { visible: boolean; why: string }) {
  return (
    <span className="grid gap-0.5">
      <Badge variant={visible ? 'success' : 'secondary'}>{visible ? 'visible' : 'hidden'}</Badge>
      <span className="text-xs text-muted-foreground">{why}</span>
    </span>
  );
}

/** One agent's verdict: in sync, or each skill on which Skilldock and the gateway disagree, with both sides' reasons. */
export function AgentDrift({ agent }: { agent: DriftAgent | undefined }) {
  if (!agent) return <span className="text-sm text-muted-foreground">not checked yet</span>;
  if (agent.inSync)
    return (
      <Badge variant="success" data-testid="agent-in-sync">
        in sync
      </Badge>
    );
  return (
    <Table aria-label={`Differences of ${agent.agentId}`}>
      <THead>
        <TR className="hover:bg-transparent">
          <TH>Skill</TH>
          <TH>Skilldock</TH>
          <TH>Gateway</TH>
        </TR>
      </THead>
      <TBody>
        {agent.differences.map((d) => (
          <TR key={d.skill} data-testid="drift-difference">
            <TD className="font-mono text-xs">{d.skill}</TD>
            <TD>
              <Side {...d.ours} />
            </TD>
            <TD>
              <Side {...d.theirs} />
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

/** The linked agents, each in sync or with its differences from the last drift check, and what a sync would still change. */
export function AgentsTab({ gateway }: { gateway: Gateway }) {
  const drift = gateway.drift;
  const byId = new Map((drift?.agents ?? []).map((a) => [a.agentId, a]));
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Linked agents</CardTitle>
          <CardDescription>
            {drift ? (
              <>
                Last drift check <RelativeTime iso={drift.checkedAt} />: what each agent sees in the gateway against what Skilldock says it should.
              </>
            ) : (
              'Drift not checked yet: use Check drift to ask the gateway what each agent sees.'
            )}
          </CardDescription>
        </CardHeader>
        <CardContent>
          {gateway.agentIds.length === 0 ? (
            <EmptyState title="No agents linked">Adopt the gateway's agents (the Adopt tab) to link them to Skilldock agents of the same id.</EmptyState>
          ) : (
            <ul className="grid gap-3">
              {gateway.agentIds.map((id) => (
                <li key={id} className="grid gap-2 rounded-md border p-3" data-testid={`linked-agent-${id}`}>
                  <Link href={`/agents/${encodeURIComponent(id)}`} className="font-mono text-sm font-medium hover:underline">
                    {id}
                  </Link>
                  <AgentDrift agent={byId.get(id)} />
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      {drift?.pending.length ? (
        <Card>
          <CardHeader>
            <CardTitle>Pending changes</CardTitle>
            <CardDescription>What the next sync would change (a hand edit of the gateway's config shows here).</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-1 text-sm" data-testid="drift-pending">
              {drift.pending.map((p) => (
                <li key={p} className="font-mono text-xs">
                  {p}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
