'use client';

import { FolderTree, TriangleAlert } from 'lucide-react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { CopyButton } from '../ui/copy-button';
import { Skeleton } from '../ui/misc';
import type { RootWarningView, SkillRootView } from './view';

/** The roots in precedence order: a skill in an earlier root shadows one of the same name in a later one. */
export function RootsCard({ roots, loading }: { roots: SkillRootView[] | undefined; loading: boolean }) {
  return (
    <Card data-testid="roots-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <FolderTree aria-hidden className="size-4 text-muted-foreground" /> Roots &amp; precedence
        </CardTitle>
        <CardDescription>Where skills are found. The first root wins when two hold a skill of the same name.</CardDescription>
      </CardHeader>
      <CardContent>
        {loading || !roots ? (
          <div className="grid gap-2">
            {[0, 1, 2, 3].map((n) => (
              <Skeleton key={n} className="h-8 w-full" />
            ))}
          </div>
        ) : (
          <ol className="grid gap-1.5">
            {roots.map((r) => (
              <li key={`${r.kind}:${r.path}`} className="flex items-center gap-2 text-sm" data-testid="root-row" data-kind={r.kind}>
                <span className="flex size-5 shrink-0 items-center justify-center rounded-full bg-muted text-xs tabular-nums text-muted-foreground">
                  {r.precedence + 1}
                </span>
                <div className="grid min-w-0 flex-1">
                  <span className="font-medium">{r.label}</span>
                  <span className="truncate font-mono text-xs text-muted-foreground" title={r.path}>
                    {r.path}
                  </span>
                </div>
                <span className="shrink-0 text-xs tabular-nums text-muted-foreground">{r.skills === 1 ? '1 skill' : `${r.skills} skills`}</span>
                <CopyButton value={r.path} label={`Copy the ${r.label} path`} className="size-7" />
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

/** Problems met while reading the roots (symlink escapes, limits, unreadable files), folded away by default. */
export function WarningsPanel({ warnings }: { warnings: RootWarningView[] }) {
  if (!warnings.length) return null;
  return (
    <details className="group rounded-lg border border-warning/40 bg-warning/10 text-sm" data-testid="root-warnings">
      <summary className="flex cursor-pointer list-none items-center gap-2 px-4 py-2.5 font-medium focus-visible:outline-2 focus-visible:outline-ring [&::-webkit-details-marker]:hidden">
        <TriangleAlert aria-hidden className="size-4 text-warning" />
        {warnings.length === 1 ? '1 problem while reading the skill folders' : `${warnings.length} problems while reading the skill folders`}
        <span className="ml-auto text-xs font-normal text-muted-foreground group-open:hidden">Show</span>
        <span className="ml-auto hidden text-xs font-normal text-muted-foreground group-open:inline">Hide</span>
      </summary>
      <ul className="grid gap-2 border-t border-warning/30 px-4 py-3">
        {warnings.map((w, i) => (
          <li key={`${w.path}:${w.code}:${i}`} className="grid gap-0.5">
            <span className="flex flex-wrap items-center gap-2">
              <code className="rounded bg-background/60 px-1.5 py-0.5 text-xs">{w.code}</code>
              <span className="break-all font-mono text-xs text-muted-foreground">{w.path}</span>
            </span>
            <span>{w.message}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
