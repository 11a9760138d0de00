'use client';

import { CircleAlert, CircleCheck, CircleX } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { cn } from '../ui/cn';
import { ErrorNote, Skeleton, Tip } from '../ui/misc';
import { RelativeTime } from '../ui/time';
import type { Readiness, RuntimeReport, ToolStatus } from './view';

const MANAGERS = [
  { key: 'pip', label: 'pip (Python)' },
  { key: 'npm', label: 'npm (Node)' },
  { key: 'system', label: 'System packages' },
] as const;

/** One runtime or binary: green with its version when found, red when missing; the tooltip says where or why. */
function Pill({ tool }: { tool: ToolStatus }) {
  const tip = tool.available ? (
    <span className="grid gap-0.5">
      <span className="break-all font-mono">{tool.path ?? 'on PATH'}</span>
      {tool.reason ? <span>{tool.reason}</span> : null}
      {tool.managed ? <span>Installed by Skilldock into the runtime dir</span> : null}
    </span>
  ) : (
    (tool.reason ?? 'Not found on PATH')
  );
  return (
    <Tip content={tip}>
      <span
        data-testid={`runtime-${tool.name}`}
        data-available={tool.available}
        className={cn(
          'inline-flex items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs font-medium',
          tool.available ? 'border-success/30 bg-success/10 text-success' : 'border-destructive/30 bg-destructive/10 text-destructive',
        )}
      >
        {tool.available ? <CircleCheck aria-hidden className="size-3.5" /> : <CircleX aria-hidden className="size-3.5" />}
        <span className="text-foreground">{tool.name}</span>
        <span className="font-mono">{tool.available ? (tool.version ?? 'found') : 'missing'}</span>
      </span>
    </Tip>
  );
}

function ManagerRow({ label, r }: { label: string; r: Readiness }) {
  return (
    <li className="flex gap-2 text-sm" data-testid={`readiness-${label}`} data-ready={r.ready}>
      {r.ready ? (
        r.reason ? (
          <CircleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-warning" />
        ) : (
          <CircleCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-success" />
        )
      ) : (
        <CircleX aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive" />
      )}
      <div className="grid min-w-0 gap-0.5">
        <span>
          <span className="font-medium">{label}</span> <span className="text-muted-foreground">— {r.ready ? 'ready' : 'not ready'}</span>
        </span>
        {r.reason ? <span className={cn('text-xs', r.ready ? 'text-muted-foreground' : 'text-destructive')}>{r.reason}</span> : null}
        {r.hint ? <span className="text-xs text-muted-foreground">Fix: {r.hint}</span> : null}
      </div>
    </li>
  );
}

/** Detected runtimes and tools as pills, and whether each package manager can install. */
export function RuntimeStatus({ report, loading, error }: { report: RuntimeReport | undefined; loading: boolean; error: unknown }) {
  const tools = report ? [report.runtimes.python3, report.runtimes.pip, report.runtimes.node, report.runtimes.npm] : [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Runtimes</CardTitle>
        <CardDescription>
          {report ? (
            <>
              {report.hostname} · {report.platform.os}/{report.platform.arch} ({report.platform.libc}){report.system.osName ? ` · ${report.system.osName}` : ''}{' '}
              · detected <RelativeTime iso={report.checkedAt} />
            </>
          ) : (
            'What skill processes can run on this host.'
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {error && !report ? <ErrorNote error={error} /> : null}
        {loading && !report ? (
          <div className="flex flex-wrap gap-2" aria-hidden>
            {Array.from({ length: 8 }, (_, i) => (
              <Skeleton key={i} className="h-6 w-24 rounded-full" />
            ))}
          </div>
        ) : null}
        {report ? (
          <>
            <div className="grid gap-2">
              <h3 className="text-xs font-medium text-muted-foreground">Languages</h3>
              <div className="flex flex-wrap gap-2">
                {tools.map((t) => (
                  <Pill key={t.name} tool={t} />
                ))}
              </div>
            </div>
            {report.binaries.length ? (
              <div className="grid gap-2">
                <h3 className="text-xs font-medium text-muted-foreground">Tools</h3>
                <div className="flex flex-wrap gap-2">
                  {report.binaries.map((t) => (
                    <Pill key={t.name} tool={t} />
                  ))}
                </div>
              </div>
            ) : null}
            <div className="grid gap-2">
              <h3 className="text-xs font-medium text-muted-foreground">Package managers</h3>
              <ul className="grid gap-2 md:grid-cols-3">
                {MANAGERS.map((m) => (
                  <ManagerRow key={m.key} label={m.label} r={report.managers[m.key]} />
                ))}
              </ul>
            </div>
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}
