'use client';

import { FileWarning } from 'lucide-react';
import { useEffect, useMemo, useRef } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '../../ui/card';
import { CopyButton } from '../../ui/copy-button';
import { EmptyState, RetryableError, Skeleton } from '../../ui/misc';
import { formatBytes } from '../import/upload';
import { useSkillFile } from '../queries';
import type { SkillDetailView } from '../view';

/** Line height of the viewer in px (leading-5): the gutter, the text and the line marker share it. */
const LINE_PX = 20;
const PAD_PX = 12;

/** Text with line numbers (a gutter beside one <pre>, cheap even for long files); `line` is marked and scrolled to. */
export function CodeView({ text, line, label }: { text: string; line?: number | null; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const count = useMemo(() => (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n').length, [text]);
  const gutter = useMemo(() => Array.from({ length: count }, (_, i) => i + 1).join('\n'), [count]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll again when another file is shown at the same line
  useEffect(() => {
    if (line && box.current) box.current.scrollTop = Math.max(0, (line - 4) * LINE_PX);
  }, [line, text]);
  return (
    <div
      ref={box}
      className="relative max-h-[70vh] overflow-auto rounded-md border bg-muted/30"
      role="region"
      aria-label={label}
      tabIndex={0}
      data-testid="code-view"
    >
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
    </div>
  );
}

export function FileViewer({ skillId, file, line }: { skillId: string; file: SkillDetailView['files'][number]; line: number | null }) {
  const q = useSkillFile(skillId, file.path);
  const content = q.data;
  return (
    <Card className="min-w-0" data-testid="file-viewer" data-path={file.path}>
      <CardHeader className="flex-row flex-wrap items-center gap-2">
        <CardTitle className="min-w-0 flex-1 truncate font-mono text-sm">{file.path}</CardTitle>
        <span className="text-xs text-muted-foreground">
          {formatBytes(file.size)} · sha256 <code title={file.sha256}>{file.sha256.slice(0, 12)}…</code>
        </span>
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
          <CodeView text={content.content} line={line} label={`Contents of ${file.path}`} />
        )}
      </CardContent>
    </Card>
  );
}
