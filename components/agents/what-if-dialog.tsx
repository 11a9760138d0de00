'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { previewAllowlistsAction, saveAllowlistsAction } from '@/app/(console)/agents/actions';
import { GatewaysToSyncNote, useGatewaysToSync } from '../gateways/gateways-to-sync';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { ErrorNote, Skeleton } from '../ui/misc';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { callAction, useOperation } from '../use-operation';
import { invalidateAgents } from './queries';
import { fmt, type PreviewItem, signed } from './view';

type Change = { agentId: string; revision: number; skills: string[] | null };

function Names({ names, kind }: { names: string[]; kind: 'gained' | 'lost' }) {
  if (!names.length) return <span className="text-muted-foreground">–</span>;
  return (
    <span className={`font-mono text-xs ${kind === 'gained' ? 'text-success' : 'text-destructive'}`} data-testid={`whatif-${kind}`}>
      {kind === 'gained' ? '+' : '−'} {names.slice(0, 12).join(', ')}
      {names.length > 12 ? ` and ${names.length - 12} more` : ''}
    </span>
  );
}

function Row({ item, name }: { item: PreviewItem; name: string }) {
  const { before, after } = item.prompt;
  return (
    <TR data-testid={`whatif-row-${item.agentId}`}>
      <TD>
        <div className="font-medium">{name}</div>
        <div className="font-mono text-xs text-muted-foreground">{item.agentId}</div>
        {item.stale ? <Badge variant="destructive">changed since you loaded it</Badge> : null}
      </TD>
      <TD className="max-w-72">
        <div className="grid gap-0.5">
          <Names names={item.gained} kind="gained" />
          <Names names={item.lost} kind="lost" />
        </div>
        {item.warnings.length ? (
          <p className="mt-1 text-xs text-muted-foreground" title={item.warnings.join('\n')}>
            {item.warnings.length === 1 ? item.warnings[0] : `${item.warnings.length} names on its lists match no known skill (kept).`}
          </p>
        ) : null}
      </TD>
      <TD className="text-xs tabular-nums" data-testid="whatif-cost">
        {fmt(before.skills)} → {fmt(after.skills)} skills
        <br />
        {fmt(before.chars)} → {fmt(after.chars)} chars ({signed(after.chars - before.chars)})
        <br />~{fmt(before.tokens)} → ~{fmt(after.tokens)} tokens ({signed(after.tokens - before.tokens)})
        {after.truncated ? (
          <Badge variant="warning" className="ml-1">
            truncated
          </Badge>
        ) : null}
      </TD>
    </TR>
  );
}

/** The what-if of the matrix's edits (per agent: skills gained and lost, prompt cost before and after), then one save. */
export function WhatIfDialog({
  changes,
  names,
  onClose,
  onSaved,
}: {
  changes: Change[];
  names: Map<string, string>;
  onClose: () => void;
  onSaved: () => void;
}) {
  const qc = useQueryClient();
  const syncing = useGatewaysToSync(changes.map((c) => c.agentId));
  const preview = useQuery({
    queryKey: ['what-if', JSON.stringify(changes)],
    queryFn: () => callAction(previewAllowlistsAction, { body: { changes } }),
    retry: false,
    gcTime: 0,
  });
  const save = useOperation(saveAllowlistsAction, {
    input: () => ({ body: { changes } }),
    onSuccess: (r) => {
      const synced = syncing.length ? `Syncing ${syncing.map((g) => g.name).join(', ')}.` : '';
      toast.success(`Saved ${r.changed} agent${r.changed === 1 ? '' : 's'}`, { description: [...r.warnings, synced].filter(Boolean).join(' ') || undefined });
      invalidateAgents(qc);
      onSaved();
    },
  });
  const items = preview.data?.items ?? [];
  const stale = items.filter((i) => i.stale);
  const total = items.reduce((n, i) => n + i.prompt.after.chars - i.prompt.before.chars, 0);
  const conflict = save.error?.code === 'conflict';
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="What changes"
      description="Per agent: the skills it gains and loses and what its prompt costs before and after. Nothing is saved yet."
      className="max-w-4xl"
    >
      <div className="grid max-h-[60vh] gap-3 overflow-y-auto" data-testid="what-if">
        <ErrorNote error={preview.error} />
        {conflict ? (
          <div
            role="alert"
            className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
            data-testid="whatif-conflict"
          >
            Changed by someone else — reload the matrix and edit again; nothing was saved. ({save.error?.message})
          </div>
        ) : (
          <ErrorNote error={save.error} />
        )}
        {stale.length ? (
          <p role="alert" className="text-sm text-destructive">
            {stale.length} agent{stale.length === 1 ? ' was' : 's were'} changed by someone else since the matrix loaded: saving will be refused. Reload the
            matrix.
          </p>
        ) : null}
        {preview.isPending ? (
          <Skeleton className="h-32 w-full" />
        ) : items.length ? (
          <>
            <GatewaysToSyncNote gateways={syncing} />
            <p className="text-sm" data-testid="whatif-total">
              {items.length} agent{items.length === 1 ? '' : 's'} · prompt cost {signed(total)} chars in all
            </p>
            <Table aria-label="What-if per agent">
              <THead>
                <TR className="hover:bg-transparent">
                  <TH>Agent</TH>
                  <TH>Skills gained and lost</TH>
                  <TH>Prompt cost</TH>
                </TR>
              </THead>
              <TBody>
                {items.map((i) => (
                  <Row key={i.agentId} item={i} name={names.get(i.agentId) ?? i.agentId} />
                ))}
              </TBody>
            </Table>
          </>
        ) : null}
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onClose}>
          Keep editing
        </Button>
        <Button disabled={!items.length || save.isPending || stale.length > 0} onClick={() => save.mutate()} data-testid="whatif-save">
          {save.isPending ? 'Saving…' : `Save ${changes.length} agent${changes.length === 1 ? '' : 's'}`}
        </Button>
      </div>
    </Dialog>
  );
}
