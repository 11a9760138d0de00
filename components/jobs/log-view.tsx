'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef } from 'react';
import { cn } from '../ui/cn';
import type { LogLine } from './view';

export const ROW_HEIGHT = 20;

// Tools write progress and notices to stderr (npm's `npm http fetch GET 200 …`), so the stream says
// nothing about failure: a line is coloured by what it says.
const ERROR_LINE = /(^|[\s[(])(error|err!|fatal|failed|failure|traceback|exception|panic)\b|^E: /i;
const WARN_LINE = /(^|[\s[(])(warn|warning|deprecated)\b|^W: /i;

export type LineTone = 'error' | 'warn' | 'info' | 'plain';

/** How a log line is coloured: errors and warnings by their content, Skilldock's own notes muted. */
export function lineTone(l: Pick<LogLine, 'line' | 'stream'>): LineTone {
  if (ERROR_LINE.test(l.line)) return 'error';
  if (WARN_LINE.test(l.line)) return 'warn';
  return l.stream === 'info' ? 'info' : 'plain';
}

const TONE_CLASS: Record<LineTone, string | undefined> = {
  error: 'text-destructive',
  warn: 'text-[color-mix(in_oklch,var(--warning),black_40%)] dark:text-warning',
  info: 'text-muted-foreground',
  plain: undefined,
};

/**
 * The virtualized log: fixed-height monospace rows, line numbers are sequence numbers, errors and
 * warnings coloured by content. While `follow` is on it sticks to the tail; scrolling up turns it
 * off, reaching the bottom turns it back on.
 */
export function LogView({
  rows,
  line,
  version,
  filter,
  follow,
  onFollowChange,
  empty,
  wrap = false,
}: {
  rows: number;
  line: (i: number) => LogLine;
  /** Changes whenever lines arrive, so rows re-render. */
  version: number;
  filter: string;
  follow: boolean;
  onFollowChange: (f: boolean) => void;
  empty: React.ReactNode;
  /** Long lines wrap (rows are measured) instead of scrolling sideways. */
  wrap?: boolean;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const lastTop = useRef(0);
  const v = useVirtualizer({ count: rows, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 30 });
  // biome-ignore lint/correctness/useExhaustiveDependencies: row heights change when wrapping is switched
  useLayoutEffect(() => v.measure(), [wrap]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the tail whenever rows arrive
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (follow && el) el.scrollTop = el.scrollHeight;
  }, [follow, rows, version]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < ROW_HEIGHT * 1.5;
    if (atBottom && !follow) onFollowChange(true);
    else if (!atBottom && el.scrollTop < lastTop.current && follow) onFollowChange(false);
    lastTop.current = el.scrollTop;
  };

  const q = filter.toLowerCase();
  return (
    <div
      ref={scrollRef}
      role="log"
      aria-label="Job log"
      tabIndex={0}
      onScroll={onScroll}
      className="relative max-h-[60vh] min-h-40 overflow-auto rounded-md border bg-background font-mono text-xs leading-5"
    >
      {rows === 0 ? (
        <div className="absolute inset-0 flex items-center justify-center p-4 text-center font-sans text-sm text-muted-foreground">{empty}</div>
      ) : (
        <div className="relative min-w-full" style={{ height: v.getTotalSize() }}>
          {v.getVirtualItems().map((item) => {
            const l = line(item.index);
            return (
              <div
                key={item.key}
                data-seq={l.seq}
                data-index={item.index}
                ref={wrap ? v.measureElement : undefined}
                title={l.at}
                className={cn(
                  'absolute left-0 top-0 flex min-w-full hover:bg-muted/60',
                  wrap ? 'w-full whitespace-pre-wrap [overflow-wrap:anywhere]' : 'w-max whitespace-pre',
                )}
                style={{ height: wrap ? undefined : ROW_HEIGHT, minHeight: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
              >
                <span aria-hidden className="sticky left-0 w-16 shrink-0 select-none border-r bg-background pr-2 text-right text-muted-foreground/70">
                  {l.seq}
                </span>
                <span className={cn('min-w-0 pl-3 pr-4', TONE_CLASS[lineTone(l)])} data-tone={lineTone(l)}>
                  {q ? <Highlight text={l.line} q={q} /> : l.line || ' '}
                </span>
              </div>
            );
          })}
        </div>
      )}
    </div>
  );
}

function Highlight({ text, q }: { text: string; q: string }) {
  const lower = text.toLowerCase();
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (let i = lower.indexOf(q); i !== -1 && q; i = lower.indexOf(q, at)) {
    if (i > at) parts.push(text.slice(at, i));
    parts.push(
      <mark key={i} className="rounded-sm bg-warning/40 text-inherit">
        {text.slice(i, i + q.length)}
      </mark>,
    );
    at = i + q.length;
  }
  parts.push(text.slice(at));
  return <>{parts}</>;
}
