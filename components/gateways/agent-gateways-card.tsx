'use client';

import { KeyRound } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { toast } from 'sonner';
import { createTokenAction } from '@/app/(console)/settings/actions';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Tip } from '../ui/misc';
import { RelativeTime } from '../ui/time';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { AgentDrift } from './agents-tab';
import { CommandLine, useOrigin } from './connect-guide';
import { useFolderClients, useGateways } from './queries';
import { StatusBadge } from './status-badges';
import { FOLDER_STATUS, syncCommand } from './view';

/**
 * On an agent's page: the gateways it is linked to with their drift for this agent, and the
 * `skilldock sync` command for a folder client, with a token made for it on request (shown once).
 */
export function AgentGatewaysCard({ agentId }: { agentId: string }) {
  const read = useCan('gateways.read');
  const mint = useCan('agents.write');
  const tokens = useCan('tokens.manage');
  const list = useGateways({ enabled: read.allowed });
  const folders = useFolderClients(agentId, { enabled: read.allowed });
  const origin = useOrigin();
  const [token, setToken] = useState('');
  const create = useOperation(createTokenAction, {
    input: () => ({ body: { name: `skilldock sync ${agentId}`, permissions: ['agents.read'], agentIds: [agentId], expiresInDays: 90 } }),
    onSuccess: (r) => {
      setToken(r.token);
      toast.success('Token created', { description: 'It is in the command below; copy it now, it is not shown again.' });
    },
    onError: (e) => toast.error('Could not create the token', { description: e.message }),
  });
  const linked = (list.data?.items ?? []).filter((g) => g.agentIds.includes(agentId));
  const why = mint.why ?? tokens.why;
  return (
    <Card className="mb-4" data-testid="agent-gateways">
      <CardHeader>
        <CardTitle>Gateways</CardTitle>
        <CardDescription>
          {!read.allowed
            ? read.why
            : linked.length
              ? 'This agent is linked in these gateways; Skilldock writes its skills into them.'
              : 'No connected gateway links this agent. Adopt it from a gateway, or point a folder client at it with the command below.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {linked.length ? (
          <ul className="grid gap-2">
            {linked.map((g) => (
              <li key={g.id} className="flex flex-wrap items-start gap-2" data-testid={`agent-gateway-${g.name}`}>
                <Link href={`/gateways/${encodeURIComponent(g.id)}`} className="font-medium hover:underline">
                  {g.name}
                </Link>
                <StatusBadge status={g.status} />
                <div className="w-full min-w-0 sm:w-auto sm:flex-1">
                  <AgentDrift agent={g.drift?.agents.find((a) => a.agentId === agentId)} />
                </div>
              </li>
            ))}
          </ul>
        ) : null}
        {folders.data?.clients.length ? (
          <ul className="grid gap-1.5" aria-label="Folder clients of this agent">
            {folders.data.clients.map((c) => (
              <li key={c.clientId} className="flex flex-wrap items-center gap-2 text-sm" data-testid={`agent-folder-client-${c.clientId}`}>
                <span className="min-w-0 truncate font-mono text-xs" title={`${c.host}:${c.dir}`}>
                  {c.host}:{c.dir}
                </span>
                <Badge variant={FOLDER_STATUS[c.status].variant}>{FOLDER_STATUS[c.status].label}</Badge>
                <span className="text-xs text-muted-foreground">
                  seen <RelativeTime iso={c.lastSeenAt} />
                </span>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="grid gap-1.5">
          <p className="text-sm font-medium">Sync a skills folder (any AgentSkills client)</p>
          <CommandLine command={syncCommand(origin, agentId, token)} label="Copy the sync command" testId="agent-sync-command" />
          {token ? (
            <p className="text-xs text-muted-foreground" role="status">
              The token reads only this agent's skills and expires in 90 days. It is not shown again: copy the command now.
            </p>
          ) : (
            <div>
              <Tip content={why}>
                <Button size="sm" variant="outline" disabled={!!why || create.isPending} onClick={() => create.mutate()} data-testid="agent-sync-token">
                  <KeyRound aria-hidden /> {create.isPending ? 'Creating…' : 'Create a token for this command'}
                </Button>
              </Tip>
            </div>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
