'use client';

import { ApiError } from '../api';
import { ErrorNote } from '../ui/misc';
import { type DepsReport, DepsTable, DiagnosticsList } from './deps-results';

/** A 400's message with each field issue under it. */
export function RequestError({ error }: { error: unknown }) {
  if (!error) return null;
  if (error instanceof ApiError && error.issues.length) {
    return (
      <div role="alert" className="grid gap-1 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
        <p>The server refused the request: fix what is listed and check again.</p>
        <ul className="list-disc pl-5 text-xs">
          {error.issues.map((i, n) => (
            <li key={n}>
              <span className="font-mono">{i.path === '(root)' ? 'request' : i.path}</span>: {i.message}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  return <ErrorNote error={error} />;
}

/** What a check found: the counts, its diagnostics, each dependency, what was excluded, and what is not installed from here. */
export function DepsReportDetails({ report, stale }: { report: DepsReport; stale: boolean }) {
  const githubMissing = report.deps.filter((d) => d.status === 'missing' && d.manager === 'github');
  const declaredSpecs = new Set(report.deps.map((d) => d.spec));
  const undeclared = report.declared ? report.scanned.filter((s) => !declaredSpecs.has(s.spec)) : [];
  return (
    <>
      {stale ? <p className="text-xs text-muted-foreground">The inputs changed since this result: check again to update it.</p> : null}
      <p className="text-sm text-muted-foreground" data-testid="deps-summary">
        {report.declared ? `${report.declared.length} declared in deps:` : 'No deps: key — the scan decides'} · {report.scanned.length} found by the scan ·{' '}
        {report.deps.length} in the final list ·{' '}
        <span className={report.missing.length ? 'font-medium text-destructive' : 'font-medium text-success'}>
          {report.missing.length ? `${report.missing.length} missing` : 'nothing missing'}
        </span>
      </p>
      {report.diagnostics.length ? <DiagnosticsList diagnostics={report.diagnostics} /> : null}
      {report.deps.length ? (
        <DepsTable deps={report.deps} />
      ) : (
        <p className="rounded-md border border-dashed p-6 text-center text-sm text-muted-foreground">
          No dependencies: nothing declared and nothing found by the scan.
        </p>
      )}
      {report.excludedScanned.length || report.excluded.length ? (
        <div className="grid gap-1 text-sm" data-testid="deps-excluded">
          <h3 className="text-xs font-medium text-muted-foreground">Excluded</h3>
          {report.excludedScanned.length ? (
            <p>
              Removed from the scan by <code>exclude_deps:</code>:{' '}
              {report.excludedScanned.map((s) => (
                <code key={s} className="mr-1.5 rounded bg-muted px-1.5 py-0.5 text-xs">
                  {s}
                </code>
              ))}
            </p>
          ) : null}
          {report.excluded.length ? (
            <p className="text-xs text-muted-foreground">
              <code>exclude_deps:</code> entries: {report.excluded.map((e) => `${e.spec} (line ${e.line})`).join(', ')}
              {report.declared ? ' — ignored because deps: is present.' : ''}
            </p>
          ) : null}
        </div>
      ) : null}
      {undeclared.length ? (
        <p className="text-xs text-muted-foreground">
          The scan also found {undeclared.map((s) => `${s.spec} (${s.file}:${s.line})`).join(', ')}, which deps: does not list; they are not installed.
        </p>
      ) : null}
      {githubMissing.length ? (
        <p className="text-xs text-muted-foreground">
          GitHub-release deps ({githubMissing.map((d) => d.spec).join(', ')}) are installed from the GitHub tab, not from here.
        </p>
      ) : null}
    </>
  );
}
