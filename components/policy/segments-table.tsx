import type { SegmentDecision } from '@/lib/policy/types';
import { Badge } from '../ui/badge';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { DecisionBadge, RuleCode } from './decision-badge';
import { RISK_VARIANT } from './view';

/** Every simple command the engine judged: what it resolved to, what it peeled off, and how it was decided. */
export function SegmentsTable({ segments, deciding }: { segments: SegmentDecision[]; deciding?: string }) {
  if (!segments.length) return <p className="text-sm text-muted-foreground">No simple commands: the command was refused before it was split.</p>;
  return (
    <Table aria-label="Segments">
      <THead>
        <TR className="hover:bg-transparent">
          <TH>Segment</TH>
          <TH>argv</TH>
          <TH>Wrappers</TH>
          <TH>Assignments</TH>
          <TH>Risk</TH>
          <TH>Decision</TH>
          <TH>Rule and reason</TH>
        </TR>
      </THead>
      <TBody>
        {segments.map((s, i) => (
          <TR
            key={i}
            data-segment={s.text}
            data-decision={s.decision}
            aria-current={deciding !== undefined && s.text === deciding && s.decision !== 'allow' ? 'true' : undefined}
            className="align-top aria-[current=true]:bg-muted/60"
          >
            <TD className="max-w-64">
              <code className="break-all font-mono text-xs">{s.text}</code>
            </TD>
            <TD className="max-w-72">
              <span className="flex flex-wrap gap-1">
                {s.argv.map((a, j) => (
                  <code
                    key={j}
                    className={j === 0 ? 'rounded border border-primary/60 px-1 font-mono text-xs font-semibold' : 'rounded bg-muted px-1 font-mono text-xs'}
                  >
                    {a === '' ? '""' : a}
                  </code>
                ))}
              </span>
            </TD>
            <TD className="font-mono text-xs">{s.wrappers.length ? s.wrappers.join(' → ') : <span className="text-muted-foreground">—</span>}</TD>
            <TD className="font-mono text-xs">{s.assignments.length ? s.assignments.join(', ') : <span className="text-muted-foreground">—</span>}</TD>
            <TD>
              <Badge variant={RISK_VARIANT[s.risk]}>{s.risk}</Badge>
            </TD>
            <TD>
              <DecisionBadge decision={s.decision} />
            </TD>
            <TD className="min-w-56">
              <RuleCode rule={s.rule} />
              <p className="mt-1 text-xs text-muted-foreground">{s.reason}</p>
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
