'use client';

import { FileWarning, WrapText } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Button } from '../../ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/card';
import { cn } from '../../ui/cn';
import { CopyButton } from '../../ui/copy-button';
import { EmptyState, RetryableError, Skeleton } from '../../ui/misc';
import { formatBytes } from '../import/upload';
import { useSkillFile } from '../queries';
import type { SkillDetailView } from '../view';

/** Line height of the viewer in px (leading-5): the gutter, the text and the line marker share it. */
const LINE_PX = 20;
const PAD_PX = 12;

export interface FlaggedLine {
  line: number;
  severity: 'critical' | 'warn' | 'info';
  message: string;
}

const FLAG_CLASS: Record<FlaggedLine['severity'], string> = {
  critical: 'bg-destructive/15 border-l-2 border-destructive',
  warn: 'bg-warning/20 border-l-2 border-warning',
  info: 'bg-primary/10 border-l-2 border-primary',
};

/** The most severe finding of each flagged line. */
function flagsByLine(flagged: FlaggedLine[]): Map<number, FlaggedLine> {
  const rank = { critical: 3, warn: 2, info: 1 };
  const m = new Map<number, FlaggedLine>();
  for (const f of flagged) if (!m.has(f.line) || rank[f.severity] > rank[m.get(f.line)!.severity]) m.set(f.line, f);
  return m;
}

/**
 * Text with line numbers; `line` is marked and scrolled to, lines with scanner findings are flagged.
 * Unwrapped it is a gutter beside one <pre> (cheap even for long files); wrapped, one row per line.
 */
export function CodeView({
  text,
  line,
  label,
  flagged = [],
  wrap = false,
}: {
  text: string;
  line?: number | null;
  label: string;
  flagged?: FlaggedLine[];
  wrap?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const lines = useMemo(() => (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n'), [text]);
  const count = lines.length;
  const gutter = useMemo(() => Array.from({ length: count }, (_, i) => i + 1).join('\n'), [count]);
  const flags = useMemo(() => flagsByLine(flagged), [flagged]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll again when another file is shown at the same line
  useEffect(() => {
    const el = box.current;
    if (!line || !el) return;
    const row = wrap ? el.querySelector<HTMLElement>(`[data-line-no="${line}"]`) : null;
    el.scrollTop = row ? Math.max(0, row.offsetTop - 4 * LINE_PX) : Math.max(0, (line - 4) * LINE_PX);
  }, [line, text, wrap]);
  return (
    <div
      ref={box}
      className="relative max-h-[70vh] overflow-auto rounded-md border bg-muted/30"
      role="region"
      aria-label={label}
      tabIndex={0}
      data-testid="code-view"
    >
      {wrap ? (
        <div className="font-mono text-xs leading-5" style={{ paddingTop: PAD_PX, paddingBottom: PAD_PX }}>
          {lines.map((l, i) => {
            const n = i + 1;
            const flag = flags.get(n);
            return (
              <div
                key={n}
                data-line-no={n}
                data-flagged={flag?.severity}
                title={flag ? `${flag.severity}: ${flag.message}` : undefined}
                className={cn('grid grid-cols-[auto_minmax(0,1fr)]', flag && FLAG_CLASS[flag.severity], n === line && 'bg-warning/25')}
                data-testid={n === line ? 'marked-line' : undefined}
              >
                <span aria-hidden className="select-none border-r px-3 text-right text-muted-foreground" style={{ minWidth: `${String(count).length + 2}ch` }}>
                  {n}
                </span>
                <span className="whitespace-pre-wrap px-3 [overflow-wrap:anywhere]">{l || ' '}</span>
              </div>
            );
          })}
        </div>
      ) : (
        <>
          {[...flags.values()].map((f) => (
            <div
              key={f.line}
              aria-hidden
              className={cn('pointer-events-none absolute inset-x-0', FLAG_CLASS[f.severity])}
              style={{ top: PAD_PX + (f.line - 1) * LINE_PX, height: LINE_PX }}
              title={`${f.severity}: ${f.message}`}
              data-flagged={f.severity}
              data-line-no={f.line}
            />
          ))}
          {line && line <= count ? (
            <div
              aria-hidden
              className="pointer-events-none absolute inset-x-0 bg-warning/25"
              style={{ top: PAD_PX + (line - 1) * LINE_PX, height: LINE_PX }}
              data-testid="marked-line"
            />
          ) : null}
          <div className="relative flex min-w-fit font-mono text-xs leading-5">
            <pre aria-hidden className="select-none border-r px-3 text-right text-muted-foreground" style={{ paddingTop: PAD_PX, paddingBottom: PAD_PX }}>
              {gutter}
            </pre>
            <pre className="flex-1 px-3 whitespace-pre" style={{ paddingTop: PAD_PX, paddingBottom: PAD_PX }}>
              {text}
            </pre>
          </div>
        </>
      )}
    </div>
  );
}

export function FileViewer({
  skillId,
  file,
  line,
  flagged = [],
}: {
  skillId: string;
  file: SkillDetailView['files'][number];
  line: number | null;
  /** The scanner's findings in this file. */
  flagged?: FlaggedLine[];
}) {
  const q = useSkillFile(skillId, file.path);
  const content = q.data;
  const [wrap, setWrap] = useState(false);
  const n = new Set(flagged.map((f) => f.line)).size;
  return (
    <Card className="min-w-0" data-testid="file-viewer" data-path={file.path}>
      <CardHeader className="flex-row flex-wrap items-center gap-2">
        <CardTitle className="min-w-0 flex-1 truncate font-mono text-sm">{file.path}</CardTitle>
        <span className="text-xs text-muted-foreground">
          {formatBytes(file.size)} · sha256 <code title={file.sha256}>{file.sha256.slice(0, 12)}…</code>
        </span>
        {n ? (
          <span className="text-xs text-destructive" data-testid="flagged-count">
            {n} flagged {n === 1 ? 'line' : 'lines'}
          </span>
        ) : null}
        {content?.content != null ? (
          <Button variant={wrap ? 'secondary' : 'outline'} size="sm" aria-pressed={wrap} onClick={() => setWrap((w) => !w)} className="h-7">
            <WrapText aria-hidden /> Wrap
          </Button>
        ) : null}
        {content?.content != null ? <CopyButton value={content.content} label={`Copy ${file.path}`} className="size-7" /> : null}
      </CardHeader>
      <CardContent>
        {q.error ? (
          <RetryableError error={q.error} onRetry={() => void q.refetch()} />
        ) : !content ? (
          <Skeleton className="h-64 w-full" />
        ) : content.binary || content.content == null ? (
          <EmptyState icon={<FileWarning />} title="Binary file">
            {formatBytes(file.size)} of binary data: not shown. The scanner reports binaries among its findings.
          </EmptyState>
        ) : (
          <CodeView text={content.content} line={line} label={`Contents of ${file.path}`} flagged={flagged} wrap={wrap} />
        )}
      </CardContent>
    </Card>
  );
}
