'use client';

import { Check, Hourglass, X } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { PageHeader } from '../shell/shell';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Confirm } from '../ui/dialog';
import { Select } from '../ui/input';
import { EmptyState, RetryableError, Tip } from '../ui/misc';
import { SkeletonRows, Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { RelativeTime } from '../ui/time';
import { useUrlFilters } from '../ui/use-url-filters';
import { useCan } from '../viewer';
import { ApprovalBinding } from './approval-binding';
import { Countdown } from './countdown';
import { RuleCode } from './decision-badge';
import { ExecSettingsCard } from './exec-settings-card';
import { PolicyTabs } from './policy-tabs';
import { type ApprovalState, type ApprovalView, useAgents, useApprovals, useDecideApproval } from './queries';

const STATE_VARIANT: Record<ApprovalState, 'warning' | 'success' | 'destructive' | 'secondary'> = {
  pending: 'warning',
  approved: 'success',
  rejected: 'destructive',
  expired: 'secondary',
};
const HISTORY_STATES: ApprovalState[] = ['approved', 'rejected', 'expired'];
type HistoryFilter = { state: ApprovalState | '' };
const parseHistory = (p: URLSearchParams): HistoryFilter => {
  const s = p.get('state') ?? '';
  return { state: (HISTORY_STATES as string[]).includes(s) ? (s as ApprovalState) : '' };
};
const historyQuery = (f: HistoryFilter) => (f.state ? `state=${f.state}` : '');

/** Commands waiting for an admin (with the time they have left), and what was decided before. */
export function ApprovalsPage() {
  const pending = useApprovals('pending');
  const all = useApprovals();
  const agents = useAgents(useCan('agents.read').allowed);
  const { allowed, why } = useCan('policy.approve');
  const { approve, reject } = useDecideApproval();
  const [confirming, setConfirming] = useState<ApprovalView | null>(null);
  const [{ state: historyState }, setHistory] = useUrlFilters(parseHistory, historyQuery);
  const agentName = (id: string) => agents.data?.items.find((a) => a.id === id)?.name ?? id;
  const history = (all.data?.items ?? []).filter((a) => a.state !== 'pending' && (!historyState || a.state === historyState));
  const onError = (e: Error) => toast.error('Could not decide the request', { description: e.message });

  return (
    <>
      <PageHeader title="Exec approvals" description="Commands an agent may run only once an admin agrees; a request not decided in time expires." />
      <PolicyTabs />
      <div className="grid gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Waiting</CardTitle>
            <CardDescription>Newest first. The agent's exec waits for the answer, or polls for it.</CardDescription>
          </CardHeader>
          <CardContent>
            {pending.error ? (
              <RetryableError error={pending.error} onRetry={() => void pending.refetch()} />
            ) : !pending.isPending && !pending.data.items.length ? (
              <EmptyState icon={<Hourglass />} title="Nothing is waiting">
                A command whose decision is “needs approval” (for example <code className="font-mono">pip install</code> under balanced) shows up here.
              </EmptyState>
            ) : (
              <Table aria-label="Pending approvals">
                <THead>
                  <TR className="hover:bg-transparent">
                    <TH>Agent</TH>
                    <TH>Command</TH>
                    <TH>Rule and reason</TH>
                    <TH>Time left</TH>
                    <TH className="text-right">
                      <span className="sr-only">Actions</span>
                    </TH>
                  </TR>
                </THead>
                <TBody>
                  {pending.isPending ? <SkeletonRows rows={2} cols={5} /> : null}
                  {pending.data?.items.map((a) => (
                    <TR key={a.id} data-approval={a.id} className="align-top">
                      <TD className="text-sm">{agentName(a.agentId)}</TD>
                      <TD className="max-w-96">
                        <code className="break-all font-mono text-xs">{a.command}</code>
                        <p className="mt-1 text-xs text-muted-foreground">
                          requested <RelativeTime iso={a.requestedAt} /> by {a.requestedBy}
                        </p>
                        <ApprovalBinding approval={a} />
                      </TD>
                      <TD className="min-w-48">
                        <RuleCode rule={a.rule} />
                        <p className="mt-1 text-xs text-muted-foreground">{a.reason}</p>
                      </TD>
                      <TD>
                        <Countdown iso={a.expiresAt} />
                      </TD>
                      <TD className="text-right">
                        <div className="flex justify-end gap-2">
                          <Tip content={why}>
                            <Button
                              size="sm"
                              variant="outline"
                              disabled={!allowed || reject.isPending}
                              onClick={() => reject.mutate(a.id, { onSuccess: () => toast.success('Rejected'), onError })}
                            >
                              <X aria-hidden /> Reject
                            </Button>
                          </Tip>
                          <Tip content={why}>
                            <Button size="sm" disabled={!allowed || approve.isPending} onClick={() => setConfirming(a)}>
                              <Check aria-hidden /> Approve
                            </Button>
                          </Tip>
                        </div>
                      </TD>
                    </TR>
                  ))}
                </TBody>
              </Table>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
            <div className="grid gap-1">
              <CardTitle>History</CardTitle>
              <CardDescription>Decided and expired requests.</CardDescription>
            </div>
            <Select
              aria-label="Filter history by state"
              className="h-8 w-36"
              value={historyState}
              onChange={(e) => setHistory({ state: e.target.value as ApprovalState | '' })}
            >
              <option value="">Any state</option>
              {HISTORY_STATES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </Select>
          </CardHeader>
          <CardContent>
            {all.error ? (
              <RetryableError error={all.error} onRetry={() => void all.refetch()} />
            ) : !all.isPending && !history.length ? (
              <p className="rounded-md border border-dashed p-4 text-center text-sm text-muted-foreground">
                No decided requests{historyState ? ` in state ${historyState}` : ''}.
              </p>
            ) : (
              <Table aria-label="Approval history">
                <THead>
                  <TR className="hover:bg-transparent">
                    <TH>State</TH>
                    <TH>Agent</TH>
                    <TH>Command</TH>
                    <TH>Rule</TH>
                    <TH>Decided</TH>
                  </TR>
                </THead>
                <TBody>
                  {all.isPending ? <SkeletonRows rows={3} cols={5} /> : null}
                  {history.map((a) => (
                    <TR key={a.id} data-approval={a.id} data-state={a.state} className="align-top">
                      <TD>
                        <Badge variant={STATE_VARIANT[a.state]}>{a.state}</Badge>
                        {a.usedAt ? <p className="mt-1 text-xs text-muted-foreground">ran</p> : null}
                      </TD>
                      <TD className="text-sm">{agentName(a.agentId)}</TD>
                      <TD className="max-w-96">
                        <code className="break-all font-mono text-xs">{a.command}</code>
                        {a.note ? <p className="mt-1 text-xs text-muted-foreground">Note: {a.note}</p> : null}
                      </TD>
                      <TD>
                        <RuleCode rule={a.rule} />
                      </TD>
                      <TD className="text-xs">
                        {a.decidedAt ? (
                          <>
                            <RelativeTime iso={a.decidedAt} /> by {a.decidedBy}
                          </>
                        ) : (
                          <>
                            expired <RelativeTime iso={a.expiresAt} />
                          </>
                        )}
                      </TD>
                    </TR>
                  ))}
                </TBody>
              </Table>
            )}
          </CardContent>
        </Card>
        <ExecSettingsCard />
      </div>
      <Confirm
        open={!!confirming}
        onOpenChange={(o) => !o && setConfirming(null)}
        title="Approve this command?"
        destructive={false}
        description={
          <div className="grid gap-2">
            <p>
              <strong>{confirming ? agentName(confirming.agentId) : ''}</strong> may then run, once:
            </p>
            <code className="block break-all rounded bg-muted p-2 font-mono text-xs text-foreground">{confirming?.command}</code>
            {confirming ? <ApprovalBinding approval={confirming} /> : null}
            <p>
              It was held by <code className="font-mono">{confirming?.rule}</code>: {confirming?.reason}
            </p>
          </div>
        }
        confirmLabel="Approve and let it run"
        busy={approve.isPending}
        onConfirm={() => {
          if (confirming) approve.mutate(confirming.id, { onSuccess: () => toast.success('Approved'), onError });
        }}
      />
    </>
  );
}
