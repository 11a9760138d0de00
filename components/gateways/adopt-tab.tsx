'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { adoptGatewayAction } from '@/app/(console)/gateways/actions';
import { invalidateAgents } from '../agents/queries';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Confirm } from '../ui/dialog';
import { ErrorNote, RetryableError, Skeleton, Tip } from '../ui/misc';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { callAction, useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { invalidateGateways } from './queries';
import { type AdoptPreview, type AdoptResult, type Gateway, plural } from './view';

const ACTION_VARIANT = { create: 'default', update: 'warning', same: 'secondary', skip: 'outline', set: 'warning' } as const;

function Names({ list }: { list: string[] | null }) {
  if (list === null) return <span className="text-xs text-muted-foreground">every skill</span>;
  if (!list.length) return <span className="text-xs text-muted-foreground">none</span>;
  return (
    <span className="font-mono text-xs" title={list.join(', ')}>
      {list.slice(0, 8).join(', ')}
      {list.length > 8 ? ` and ${list.length - 8} more` : ''}
    </span>
  );
}

/** Adopt: the preview of what taking the gateway's agents, defaults and skill entries into Skilldock changes, then the adoption of the agents picked. */
export function AdoptTab({ gateway }: { gateway: Gateway }) {
  const can = useCan('gateways.write');
  const qc = useQueryClient();
  const [picked, setPicked] = useState<Set<string> | null>(null);
  const [confirming, setConfirming] = useState(false);
  const preview = useQuery({
    queryKey: ['gateways', 'adopt-preview', gateway.id, gateway.revision],
    queryFn: async () => (await callAction(adoptGatewayAction, { params: { id: gateway.id }, query: { preview: 'true' }, body: {} })) as AdoptPreview,
    enabled: can.allowed,
    retry: false,
    gcTime: 0,
  });
  const p = preview.data;
  const adoptable = (p?.agents ?? []).filter((a) => a.action !== 'skip').map((a) => a.id);
  const chosen = picked ?? new Set(adoptable);
  const adopt = useOperation(adoptGatewayAction, {
    input: () => ({ params: { id: gateway.id }, body: { agentIds: [...chosen] } }),
    onSuccess: (r) => {
      const out = r as AdoptResult;
      toast.success(`Adopted ${plural(out.adopted.length, 'agent')}`, {
        description: 'They are linked: every change in Skilldock is synced into the gateway.',
      });
      setConfirming(false);
      setPicked(null);
      invalidateGateways(qc);
      invalidateAgents(qc);
    },
    onError: () => setConfirming(false),
  });
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    setPicked(next);
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Adopt the gateway's agents</CardTitle>
        <CardDescription>
          Takes each agent's skill list, the default list and the skill entries from the gateway's config into Skilldock, and links the agents so that Skilldock
          is the source from then on. Nothing in the gateway changes now.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4" data-testid="adopt-preview">
        <ErrorNote error={adopt.error} />
        {!can.allowed ? (
          <p className="text-sm text-muted-foreground">{can.why}</p>
        ) : preview.error ? (
          <RetryableError error={preview.error} onRetry={() => void preview.refetch()} />
        ) : !p ? (
          <Skeleton className="h-32 w-full" />
        ) : (
          <>
            <Table aria-label="Agents to adopt">
              <THead>
                <TR className="hover:bg-transparent">
                  <TH className="w-8">
                    <span className="sr-only">Adopt</span>
                  </TH>
                  <TH>Agent</TH>
                  <TH>Change</TH>
                  <TH>In the gateway</TH>
                  <TH className="hidden sm:table-cell">In Skilldock now</TH>
                </TR>
              </THead>
              <TBody>
                {p.agents.map((a) => (
                  <TR key={a.id} data-testid={`adopt-row-${a.id}`}>
                    <TD>
                      <input
                        type="checkbox"
                        className="size-4 accent-primary"
                        aria-label={`Adopt ${a.id}`}
                        disabled={a.action === 'skip'}
                        checked={chosen.has(a.id)}
                        onChange={(e) => toggle(a.id, e.target.checked)}
                      />
                    </TD>
                    <TD className="font-mono text-sm">{a.id}</TD>
                    <TD>
                      <Badge variant={ACTION_VARIANT[a.action]}>{a.action}</Badge>
                      {a.why ? <div className="mt-0.5 text-xs text-muted-foreground">{a.why}</div> : null}
                    </TD>
                    <TD className="max-w-64">
                      <Names list={a.gateway} />
                    </TD>
                    <TD className="hidden max-w-64 sm:table-cell">
                      <Names list={a.skilldock} />
                    </TD>
                  </TR>
                ))}
                <TR>
                  <TD />
                  <TD className="text-sm text-muted-foreground">defaults</TD>
                  <TD>
                    <Badge variant={ACTION_VARIANT[p.defaults.action]}>{p.defaults.action}</Badge>
                  </TD>
                  <TD className="max-w-64">
                    <Names list={p.defaults.gateway} />
                  </TD>
                  <TD className="hidden max-w-64 sm:table-cell">
                    <Names list={p.defaults.skilldock} />
                  </TD>
                </TR>
              </TBody>
            </Table>
            {p.entries.length ? (
              <div className="grid gap-1">
                <h3 className="text-sm font-medium">Skill entries</h3>
                <ul className="grid gap-1 text-sm">
                  {p.entries.map((e) => (
                    <li key={e.key} className="flex flex-wrap items-center gap-2">
                      <Badge variant={ACTION_VARIANT[e.action]}>{e.action}</Badge>
                      <span className="font-mono text-xs">{e.key}</span>
                      {e.enabled === false ? <Badge variant="secondary">disabled</Badge> : null}
                      {e.env.length ? <span className="text-xs text-muted-foreground">env {e.env.join(', ')}</span> : null}
                      {e.apiKey ? <span className="text-xs text-muted-foreground">API key ({e.apiKey})</span> : null}
                      {e.why ? <span className="text-xs text-muted-foreground">{e.why}</span> : null}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            {p.notes.length ? (
              <ul className="grid gap-1 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm">
                {p.notes.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            ) : null}
            <div className="flex justify-end">
              <Tip content={can.why}>
                <Button disabled={!chosen.size || adopt.isPending} onClick={() => setConfirming(true)} data-testid="adopt-start">
                  Adopt {plural(chosen.size, 'agent')}…
                </Button>
              </Tip>
            </div>
          </>
        )}
      </CardContent>
      {confirming ? (
        <Confirm
          open
          onOpenChange={(o) => !o && setConfirming(false)}
          title={`Adopt ${plural(chosen.size, 'agent')}?`}
          description={
            <>
              Skilldock agents {[...chosen].join(', ')} are created or given the gateway's skill lists (a Skilldock list that differs is replaced), the defaults
              and skill entries are taken as the preview shows, and the agents are linked to {gateway.name}. The gateway itself is not changed.
            </>
          }
          confirmLabel="Adopt"
          destructive={false}
          busy={adopt.isPending}
          onConfirm={() => adopt.mutate()}
        />
      ) : null}
    </Card>
  );
}
