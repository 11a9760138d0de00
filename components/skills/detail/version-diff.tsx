'use client';

import { ArrowLeftRight, WrapText } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { cn } from '../../ui/cn';
import { Select } from '../../ui/input';
import { RetryableError, Skeleton } from '../../ui/misc';
import { useSkillDiff } from '../queries';
import type { VersionDiffView, VersionInfo } from '../view';

const STATUS_VARIANT = { added: 'success', removed: 'destructive', modified: 'warning', unchanged: 'secondary' } as const;

/** A unified diff with added and removed lines coloured; file headers (Index, ===, ---, +++) are dropped. */
export function PatchView({ patch, path }: { patch: string; path: string }) {
  const [wrap, setWrap] = useState(false);
  const lines = patch
    .replace(/\n$/, '')
    .split('\n')
    .filter((l, i) => !(i < 4 && /^(Index:|={10,}|--- |\+\+\+ )/.test(l)));
  return (
    <div className="grid gap-1.5">
      <div className="flex justify-end">
        <Button variant={wrap ? 'secondary' : 'outline'} size="sm" aria-pressed={wrap} onClick={() => setWrap((w) => !w)} className="h-7">
          <WrapText aria-hidden /> Wrap
        </Button>
      </div>
      <pre
        className="overflow-x-auto rounded-md border bg-muted/30 py-2 font-mono text-xs leading-5"
        role="region"
        aria-label={`Changes in ${path}`}
        data-testid="patch"
      >
        {lines.map((l, i) => {
          const kind = l.startsWith('@@') ? 'hunk' : l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : l.startsWith('\\') ? 'meta' : 'ctx';
          return (
            <div
              key={i}
              data-line={kind}
              className={cn(
                wrap ? 'px-3 whitespace-pre-wrap [overflow-wrap:anywhere]' : 'px-3 whitespace-pre',
                kind === 'add' && 'bg-success/15 text-foreground',
                kind === 'del' && 'bg-destructive/15 text-foreground',
                kind === 'hunk' && 'bg-primary/10 text-primary',
                kind === 'meta' && 'text-muted-foreground italic',
              )}
            >
              {l || ' '}
            </div>
          );
        })}
      </pre>
    </div>
  );
}

export function DiffBody({ diff }: { diff: VersionDiffView }) {
  const changed = diff.files.filter((f) => f.status !== 'unchanged');
  if (!changed.length)
    return (
      <p className="text-sm text-muted-foreground">
        {diff.a} and {diff.b} have the same files and content.
      </p>
    );
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <ul className="grid gap-1" aria-label="Changed files" data-testid="diff-files">
        {changed.map((f) => (
          <li key={f.path} className="flex items-center gap-2 text-sm" data-status={f.status}>
            <Badge variant={STATUS_VARIANT[f.status]} className="w-20 justify-center">
              {f.status}
            </Badge>
            <a href={`#diff-${encodeURIComponent(f.path)}`} className="font-mono text-xs hover:underline">
              {f.path}
            </a>
          </li>
        ))}
      </ul>
      {diff.textDiffs.map((t) => (
        <section key={t.path} id={`diff-${encodeURIComponent(t.path)}`} className="grid grid-cols-[minmax(0,1fr)] gap-1.5" aria-label={t.path}>
          <h4 className="font-mono text-xs font-medium">{t.path}</h4>
          {'patch' in t ? (
            <PatchView patch={t.patch} path={t.path} />
          ) : (
            <p className="text-xs text-muted-foreground">{'binary' in t ? 'Binary file: contents differ.' : 'Too large to show a line diff.'}</p>
          )}
        </section>
      ))}
    </div>
  );
}

/** Compare any two stored versions: the files added, removed and changed, then each change as a unified diff. */
export function VersionDiff({ slug, versions, active }: { slug: string; versions: VersionInfo[]; active: string | null }) {
  const newest = versions[0]?.version ?? '';
  const b0 = active ?? newest;
  const a0 = versions.find((v) => v.version !== b0)?.version ?? '';
  const [a, setA] = useState(a0);
  const [b, setB] = useState(b0);
  const q = useSkillDiff(slug, a, b);
  const opts = versions.map((v) => (
    <option key={v.version} value={v.version}>
      {v.version}
      {v.active ? ' (active)' : ''}
    </option>
  ));
  return (
    <Card data-testid="version-diff">
      <CardHeader>
        <CardTitle>Compare versions</CardTitle>
        <CardDescription>What changed between two stored versions.</CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-4">
        <div className="flex flex-wrap items-center gap-2">
          <Select aria-label="From version" value={a} onChange={(e) => setA(e.target.value)} className="w-40" data-testid="diff-from">
            {opts}
          </Select>
          <button
            type="button"
            aria-label="Swap the versions"
            onClick={() => {
              setA(b);
              setB(a);
            }}
            className="rounded p-1.5 text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
          >
            <ArrowLeftRight aria-hidden className="size-4" />
          </button>
          <Select aria-label="To version" value={b} onChange={(e) => setB(e.target.value)} className="w-40" data-testid="diff-to">
            {opts}
          </Select>
        </div>
        <div data-testid="diff-view">
          {a === b ? (
            <p className="text-sm text-muted-foreground">Choose two different versions.</p>
          ) : q.error ? (
            <RetryableError error={q.error} onRetry={() => void q.refetch()} />
          ) : !q.data ? (
            <Skeleton className="h-32 w-full" />
          ) : (
            <DiffBody diff={q.data} />
          )}
        </div>
      </CardContent>
    </Card>
  );
}
