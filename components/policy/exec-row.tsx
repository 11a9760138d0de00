'use client';

import Link from 'next/link';
import { minimumRole } from '@/lib/auth/permissions';
import { Badge } from '../ui/badge';
import { TD, TR } from '../ui/table';
import { RelativeTime } from '../ui/time';
import { FinalDecisionBadge, RuleCode } from './decision-badge';
import { formatMs } from './exec-log-view';
import type { ExecLogRow } from './queries';

/**
 * The outcome worth a second badge: not "ran" or "denied" (the decision says those), and once its
 * request was decided, not what the request's end already says (pending, rejected, expired).
 */
function extraOutcome(r: ExecLogRow): string | null {
  if (r.outcome === 'ran' || r.outcome === 'denied') return null;
  if (r.approvalState && r.approvalState !== 'pending' && r.outcome !== 'failed') return null;
  return r.outcome;
}

/**
 * One exec as a table row: time, command, decision as it finally stands (and an outcome worth
 * saying), deciding rule, exit code. `detailed` (the exec log) adds who sent it under what profile,
 * a mark on cut output, and the duration column; `withAgent` an agent column (all agents' log).
 */
export function ExecRow({ exec: r, detailed = false, withAgent = false }: { exec: ExecLogRow; detailed?: boolean; withAgent?: boolean }) {
  const outcome = extraOutcome(r);
  return (
    <TR data-exec={r.id} data-decision={r.decision} className="align-top">
      <TD className="whitespace-nowrap text-xs">
        <RelativeTime iso={r.at} />
      </TD>
      {withAgent ? (
        <TD className="text-xs">
          <Link className="font-mono hover:underline" href={`/agents/${encodeURIComponent(r.agentId)}`}>
            {r.agentId}
          </Link>
        </TD>
      ) : null}
      <TD className="max-w-96">
        {r.command === null ? (
          <span
            className="text-xs text-muted-foreground"
            title={`Reading commands needs the ${minimumRole('policy.commands')} role`}
            data-testid="exec-command-hidden"
          >
            Command hidden (needs the {minimumRole('policy.commands')} role)
          </span>
        ) : (
          <code className="break-all font-mono text-xs">{r.command}</code>
        )}
        {detailed ? (
          <p className="mt-1 text-xs text-muted-foreground">
            {r.profile}
            {r.sessionId ? ` · session ${r.sessionId}` : ''} · by {r.by}
          </p>
        ) : null}
      </TD>
      <TD>
        <div className="grid justify-items-start gap-1" data-slot="decision">
          <FinalDecisionBadge decision={r.decision} approvalState={r.approvalState} />
          {outcome ? <Badge variant="outline">{outcome}</Badge> : null}
        </div>
      </TD>
      <TD className="min-w-40" title={r.reason}>
        <RuleCode rule={r.rule} />
      </TD>
      <TD className="font-mono text-xs tabular-nums">
        {r.exitCode === null ? <span className="text-muted-foreground">—</span> : r.exitCode}
        {detailed && (r.stdoutTruncated || r.stderrTruncated) ? (
          <span className="ml-1 text-muted-foreground" title="Output was cut at the cap">
            ✂
          </span>
        ) : null}
      </TD>
      {detailed ? <TD className="font-mono text-xs tabular-nums">{formatMs(r.durationMs)}</TD> : null}
    </TR>
  );
}
