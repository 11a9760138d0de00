'use client';

import { CircleCheck, CircleHelp, CircleX, TriangleAlert } from 'lucide-react';
import type { z } from 'zod';
import type { depDiagnosticOut, depOut } from '@/lib/api/package-schemas';
import { Badge } from '../ui/badge';
import { cn } from '../ui/cn';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table';
import type { DepsInstallOut, DepsReport } from './view';

/** The deps check's shapes, from the contract (lib/api/package-schemas.ts). */
export type CheckedDepOut = z.output<typeof depOut>;
export type DepDiagnosticOut = z.output<typeof depDiagnosticOut>;
export type DepLocation = NonNullable<CheckedDepOut['where']>[number];
export type { DepsInstallOut, DepsReport };

const STATUS: Record<CheckedDepOut['status'], { variant: 'success' | 'destructive' | 'warning'; icon: typeof CircleCheck; label: string }> = {
  ok: { variant: 'success', icon: CircleCheck, label: 'ok' },
  missing: { variant: 'destructive', icon: CircleX, label: 'missing' },
  unknown: { variant: 'warning', icon: CircleHelp, label: 'unknown' },
};

export function StatusPill({ status }: { status: CheckedDepOut['status'] }) {
  const look = STATUS[status] ?? STATUS.unknown;
  const Icon = look.icon;
  return (
    <Badge variant={look.variant} data-testid="dep-status" data-status={status}>
      <Icon aria-hidden className="size-3.5" />
      {look.label}
    </Badge>
  );
}

const MANAGER_PREFIX = /^(pip|npm|system|apt|apk|github):/;
const aliasTarget = (to: string) => (MANAGER_PREFIX.test(to) ? to : `pip:${to}`);

/** "SKILL.md:7" for a declared dep, "scripts/run.py:3" for each place the scan saw it. */
function Where({ dep }: { dep: CheckedDepOut }) {
  const places = [...(dep.line ? [{ file: 'SKILL.md', line: dep.line }] : []), ...(dep.where ?? [])];
  if (!places.length) return <span className="text-muted-foreground">—</span>;
  const shown = places.slice(0, 3);
  return (
    <span className="grid gap-0.5 font-mono text-xs">
      {shown.map((p, i) => (
        <span key={`${p.file}:${p.line}:${i}`} className="break-all">
          {p.file}:{p.line}
        </span>
      ))}
      {places.length > shown.length ? (
        <span
          className="font-sans text-muted-foreground"
          title={places
            .slice(3)
            .map((p) => `${p.file}:${p.line}`)
            .join('\n')}
        >
          +{places.length - shown.length} more
        </span>
      ) : null}
    </span>
  );
}

/** The final dependency list: source, status, what was found or why not, alias mapping and where it came from. */
export function DepsTable({ deps }: { deps: CheckedDepOut[] }) {
  return (
    <Table aria-label="Dependencies">
      <THead>
        <TR className="hover:bg-transparent">
          <TH>Dependency</TH>
          <TH>Source</TH>
          <TH>Status</TH>
          <TH>Detail</TH>
          <TH>Found at</TH>
        </TR>
      </THead>
      <TBody>
        {deps.map((d) => (
          <TR key={`${d.source}:${d.spec}`} data-testid="dep-row" data-spec={d.spec} data-status={d.status}>
            <TD className="align-top">
              <div className="grid gap-0.5">
                <span className="break-all font-mono text-[13px]">{d.spec}</span>
                {d.alias ? (
                  <span className="text-xs text-muted-foreground" data-testid="dep-alias">
                    <code>import {d.alias.from}</code> → <code>{aliasTarget(d.alias.to)}</code>
                    {d.alias.hint ? <span className="block">{d.alias.hint}</span> : null}
                  </span>
                ) : d.importName && d.importName !== d.name ? (
                  <span className="text-xs text-muted-foreground">
                    checked as <code>import {d.importName}</code>
                  </span>
                ) : null}
              </div>
            </TD>
            <TD className="align-top">
              <Badge variant={d.source === 'declared' ? 'default' : 'secondary'}>{d.source}</Badge>
            </TD>
            <TD className="align-top">
              <StatusPill status={d.status} />
            </TD>
            <TD className={cn('align-top text-xs', d.status === 'ok' ? 'text-muted-foreground' : 'text-foreground')}>
              <span className="break-words">{d.detail || '—'}</span>
            </TD>
            <TD className="align-top">
              <Where dep={d} />
            </TD>
          </TR>
        ))}
      </TBody>
    </Table>
  );
}

const KEY_LABEL: Record<string, string> = { deps: 'deps:', exclude_deps: 'exclude_deps:', frontmatter: 'front matter', scan: 'script scan' };

/** Every entry that was rejected or ignored, with its place and reason (nothing is dropped silently). */
export function DiagnosticsList({ diagnostics }: { diagnostics: DepDiagnosticOut[] }) {
  return (
    <div className="grid gap-2 rounded-md border border-warning/40 bg-warning/10 p-3" role="region" aria-label="Problems in the declarations">
      <h3 className="flex items-center gap-2 text-sm font-medium">
        <TriangleAlert aria-hidden className="size-4 text-warning" />
        {diagnostics.length === 1 ? '1 entry was not used' : `${diagnostics.length} entries were not used`}
      </h3>
      <ul className="grid gap-1.5">
        {diagnostics.map((d, i) => (
          <li key={i} className="grid gap-0.5 text-sm" data-testid="dep-diagnostic" data-line={d.line ?? ''}>
            <span className="flex flex-wrap items-center gap-2">
              <Badge variant="outline" className="font-mono">
                {d.file ? `${d.file}${d.line ? `:${d.line}` : ''}` : d.line ? `SKILL.md line ${d.line}` : 'SKILL.md'}
              </Badge>
              <span className="text-xs text-muted-foreground">{KEY_LABEL[d.key] ?? d.key}</span>
              {d.raw ? <code className="break-all rounded bg-muted px-1.5 py-0.5 text-xs">{d.raw}</code> : null}
            </span>
            <span className="text-xs">{d.message}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
