'use client';

import { useQueryClient } from '@tanstack/react-query';
import { FolderSync } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { toast } from 'sonner';
import { forgetFolderClientAction } from '@/app/(console)/gateways/actions';
import { ConfirmRow } from '../lists/confirm-row';
import { QueryListState } from '../lists/query-list-state';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { EmptyState, Tip } from '../ui/misc';
import { SkeletonRows, Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { RelativeTime } from '../ui/time';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { invalidateGateways, useFolderClients } from './queries';
import { FOLDER_MODES, FOLDER_STATUS, type FolderClient } from './view';

const matches = (c: FolderClient, q: string) => !q || `${c.agentId} ${c.host} ${c.dir} ${c.via}`.toLowerCase().includes(q.toLowerCase());

/**
 * The folder kind of gateway: every `skilldock sync` client as it last reported itself — where it
 * runs, how it follows, and whether it holds its agent's current skills. Nothing is registered by
 * hand; an admin forgets a client no longer run.
 */
export function FolderClientsCard({ q = '' }: { q?: string }) {
  const list = useFolderClients();
  const can = useCan('gateways.write');
  const qc = useQueryClient();
  const [forgetting, setForgetting] = useState<FolderClient | null>(null);
  const forget = useOperation(forgetFolderClientAction, {
    input: (c: FolderClient) => ({ params: { agentId: c.agentId, clientId: c.clientId } }),
    onSuccess: (_, c) => {
      toast.success('Folder client forgotten', { description: `${c.host}:${c.dir} reappears if it runs again.` });
      invalidateGateways(qc);
      setForgetting(null);
    },
    onError: (e) => toast.error('Could not forget the client', { description: e.message }),
  });
  const rows = (list.data?.clients ?? []).filter((c) => matches(c, q));
  return (
    <Card data-testid="folder-clients">
      <CardHeader>
        <CardTitle>Folder clients</CardTitle>
        <CardDescription>
          Skills folders kept in step by <code>skilldock sync</code> (any AgentSkills client). Each appears here once it runs; its command is on the agent's
          page.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-3">
        <QueryListState
          query={list}
          total={(d) => d.clients.length}
          matched={rows.length}
          empty={
            <EmptyState icon={<FolderSync />} title="No folder client has reported yet">
              Run skilldock sync beside a client with a token of the agent; it is listed after its first request.
            </EmptyState>
          }
          noMatch={
            <EmptyState icon={<FolderSync />} title="No folder client matches">
              Nothing matches the search.
            </EmptyState>
          }
        >
          <Table aria-label="Folder clients" aria-busy={!list.data || undefined}>
            <THead>
              <TR className="hover:bg-transparent">
                <TH>Agent</TH>
                <TH>Where</TH>
                <TH className="hidden md:table-cell">Follows by</TH>
                <TH>Status</TH>
                <TH className="hidden sm:table-cell">Last seen</TH>
                <TH>
                  <span className="sr-only">Actions</span>
                </TH>
              </TR>
            </THead>
            <TBody>
              {!list.data ? (
                <SkeletonRows rows={2} cols={6} />
              ) : (
                rows.map((c) => (
                  <TR key={`${c.agentId}/${c.clientId}`} data-testid={`folder-client-${c.clientId}`}>
                    <TD>
                      <Link href={`/agents/${encodeURIComponent(c.agentId)}`} className="font-medium hover:underline">
                        {c.agentId}
                      </Link>
                    </TD>
                    <TD className="max-w-72">
                      <div className="truncate font-mono text-xs" title={`${c.host}:${c.dir}`}>
                        {c.host}:{c.dir}
                      </div>
                      <div className="truncate text-xs text-muted-foreground">as {c.via}</div>
                    </TD>
                    <TD className="hidden text-sm md:table-cell">{FOLDER_MODES[c.mode]}</TD>
                    <TD>
                      <Badge variant={FOLDER_STATUS[c.status].variant} data-testid="folder-client-status">
                        {FOLDER_STATUS[c.status].label}
                      </Badge>
                      <div className="mt-1 max-w-64 text-xs text-muted-foreground">{c.summary}</div>
                    </TD>
                    <TD className="hidden text-sm sm:table-cell">
                      <RelativeTime iso={c.lastSeenAt} />
                    </TD>
                    <TD className="text-right">
                      <Tip content={can.why}>
                        <Button variant="ghost" size="sm" disabled={!can.allowed} onClick={() => setForgetting(c)}>
                          Forget
                        </Button>
                      </Tip>
                    </TD>
                  </TR>
                ))
              )}
            </TBody>
          </Table>
        </QueryListState>
      </CardContent>
      <ConfirmRow
        row={forgetting}
        onClose={() => setForgetting(null)}
        title="Forget this folder client?"
        describe={(c) => (
          <>
            <span className="font-mono">
              {c.host}:{c.dir}
            </span>{' '}
            (agent {c.agentId}) leaves this list. Its folder is not touched, and it reappears if the command runs again.
          </>
        )}
        confirmLabel="Forget client"
        busy={forget.isPending}
        onConfirm={(c) => forget.mutate(c)}
      />
    </Card>
  );
}
