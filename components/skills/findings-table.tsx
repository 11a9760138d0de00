import { Badge } from '../ui/badge';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table';
import type { ScanFinding } from './view';

const RANK: Record<ScanFinding['severity'], number> = { critical: 0, warn: 1, info: 2 };
const LOOK: Record<ScanFinding['severity'], { variant: 'destructive' | 'warning' | 'secondary'; label: string }> = {
  critical: { variant: 'destructive', label: 'critical' },
  warn: { variant: 'warning', label: 'warning' },
  info: { variant: 'secondary', label: 'info' },
};

export const sortFindings = (fs: ScanFinding[]) =>
  [...fs].sort((a, b) => RANK[a.severity] - RANK[b.severity] || a.file.localeCompare(b.file) || a.line - b.line);

/** Scanner findings, most severe first: severity, file:line, rule, message and the offending excerpt. */
export function FindingsTable({
  findings,
  onOpenFile,
  compact,
}: {
  findings: ScanFinding[];
  onOpenFile?: (file: string, line: number) => void;
  compact?: boolean;
}) {
  return (
    <Table aria-label="Scanner findings" data-testid="findings-table">
      <THead>
        <TR className="hover:bg-transparent">
          <TH>Severity</TH>
          <TH>Where</TH>
          <TH>Rule</TH>
          <TH>Finding</TH>
        </TR>
      </THead>
      <TBody>
        {sortFindings(findings).map((f, i) => (
          <TR key={`${f.file}:${f.line}:${f.rule}:${i}`} data-testid="finding-row" data-severity={f.severity} data-rule={f.rule}>
            <TD className="align-top">
              <Badge variant={LOOK[f.severity].variant}>{LOOK[f.severity].label}</Badge>
            </TD>
            <TD className="align-top font-mono text-xs whitespace-nowrap">
              {onOpenFile ? (
                <button
                  type="button"
                  className="text-left text-primary hover:underline focus-visible:outline-2 focus-visible:outline-ring"
                  onClick={() => onOpenFile(f.file, f.line)}
                >
                  {f.file}:{f.line}
                </button>
              ) : (
                <span>
                  {f.file}:{f.line}
                </span>
              )}
            </TD>
            <TD className="align-top font-mono text-xs whitespace-nowrap">{f.rule}</TD>
            <TD className="align-top text-sm">
              <div className="grid gap-1">
                <span>{f.message}</span>
                {f.excerpt && !compact ? (
                  <code className="block max-w-xl overflow-x-auto whitespace-pre rounded bg-muted px-2 py-1 font-mono text-xs">{f.excerpt}</code>
                ) : null}
              </div>
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}
