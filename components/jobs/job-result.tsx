import { Badge } from '../ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { formatDuration } from './format';

interface DiagnosticsCheck {
  name: string;
  ok: boolean;
  version?: string;
  detail?: string;
  durationMs?: number;
}

function diagnosticsChecks(result: unknown): DiagnosticsCheck[] | null {
  const checks = (result as { checks?: unknown } | null)?.checks;
  if (!Array.isArray(checks)) return null;
  return checks.filter((c): c is DiagnosticsCheck => !!c && typeof c === 'object' && typeof (c as DiagnosticsCheck).name === 'string');
}

/** What the job produced: the diagnostics checks as a table, anything else as formatted JSON. */
export function JobResult({ kind, result }: { kind: string; result: unknown }) {
  const checks = kind === 'diagnostics' ? diagnosticsChecks(result) : null;
  if (checks) {
    const failed = checks.filter((c) => !c.ok).length;
    return (
      <Card>
        <CardHeader className="flex-row items-start justify-between gap-2">
          <div className="grid gap-1">
            <CardTitle>Result</CardTitle>
            <CardDescription>{failed ? `${failed} of ${checks.length} checks found a problem.` : `All ${checks.length} checks passed.`}</CardDescription>
          </div>
          <Badge variant={failed ? 'destructive' : 'success'}>{failed ? 'problems found' : 'all good'}</Badge>
        </CardHeader>
        <CardContent>
          <Table aria-label="Diagnostics checks">
            <THead>
              <TR className="hover:bg-transparent">
                <TH>Check</TH>
                <TH className="w-16">OK</TH>
                <TH>Version or detail</TH>
                <TH className="text-right">Took</TH>
              </TR>
            </THead>
            <TBody>
              {checks.map((c) => (
                <TR key={c.name}>
                  <TD className="font-medium">{c.name}</TD>
                  <TD>
                    {c.ok ? (
                      <span role="img" aria-label="passed" className="font-semibold text-success">
                        ✓
                      </span>
                    ) : (
                      <span role="img" aria-label="problem" className="font-semibold text-destructive">
                        ✗
                      </span>
                    )}
                  </TD>
                  <TD className={c.ok ? 'font-mono text-xs' : 'text-xs text-destructive'}>
                    <span className="break-all">{c.ok ? (c.version ?? c.detail ?? '—') : (c.detail ?? 'not usable')}</span>
                    {c.ok && c.version && c.detail ? <span className="ml-2 font-sans text-muted-foreground">{c.detail}</span> : null}
                  </TD>
                  <TD className="text-right text-muted-foreground" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {typeof c.durationMs === 'number' ? formatDuration(c.durationMs) : '—'}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </CardContent>
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Result</CardTitle>
      </CardHeader>
      <CardContent>
        <pre className="max-h-96 overflow-auto rounded-md border bg-muted/40 p-3 font-mono text-xs">{JSON.stringify(result, null, 2)}</pre>
      </CardContent>
    </Card>
  );
}
