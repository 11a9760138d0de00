'use client';

import Link from 'next/link';
import { ExecRow } from '../policy/exec-row';
import { useExecLog } from '../policy/queries';
import { buttonVariants } from '../ui/button';
import { Card, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { RetryableError } from '../ui/misc';
import { SkeletonRows, Table, TBody, TH, THead, TR } from '../ui/table';

const RECENT = 20;

/** The agent's last execs through the gateway: command, decision, deciding rule, exit code, time. */
export function AgentPolicyExecs({ agentId }: { agentId: string }) {
  const log = useExecLog(agentId, RECENT);
  const rows = log.data?.items ?? [];
  return (
    <Card data-testid="agent-policy-execs">
      <CardHeader>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="grid gap-1">
            <CardTitle>Recent execs</CardTitle>
            <CardDescription>The last {RECENT} commands this agent sent to the gateway&apos;s exec, newest first.</CardDescription>
          </div>
          <Link
            href={`/policy/exec-log?${new URLSearchParams({ agent: agentId })}`}
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
            data-testid="agent-policy-exec-log-link"
          >
            Full exec log
          </Link>
        </div>
      </CardHeader>
      {log.error ? (
        <div className="p-5 pt-0">
          <RetryableError error={log.error} onRetry={() => void log.refetch()} />
        </div>
      ) : (
        <>
          <Table aria-label="Recent execs">
            <THead>
              <TR className="hover:bg-transparent">
                <TH>Time</TH>
                <TH>Command</TH>
                <TH>Decision</TH>
                <TH>Rule</TH>
                <TH>Exit</TH>
              </TR>
            </THead>
            <TBody>
              {log.isPending ? <SkeletonRows rows={3} cols={5} /> : null}
              {rows.map((r) => (
                <ExecRow key={r.id} exec={r} />
              ))}
            </TBody>
          </Table>
          {log.data && !rows.length ? (
            <p className="p-6 text-center text-sm text-muted-foreground" data-testid="agent-policy-execs-empty">
              No execs yet: the commands this agent sends to <code className="font-mono">POST /api/v1/agents/{agentId}/exec</code> show up here.
            </p>
          ) : null}
        </>
      )}
    </Card>
  );
}
