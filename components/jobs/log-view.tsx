'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef } from 'react';
import { cn } from '../ui/cn';
import type { LogLine } from './view';

export const ROW_HEIGHT = 20;

/**
 * The virtualized log: fixed-height monospace rows, line numbers are sequence numbers, stderr in
 * red. While `follow` is on it sticks to the tail; scrolling up turns it off, reaching the bottom
 * turns it back on.
 */
export function LogView({
  rows,
  line,
  version,
  filter,
  follow,
  onFollowChange,
  empty,
}: {
  rows: number;
  line: (i: number) => LogLine;
  /** Changes whenever lines arrive, so rows re-render. */
  version: number;
  filter: string;
  follow: boolean;
  onFollowChange: (f: boolean) => void;
  empty: React.ReactNode;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const lastTop = useRef(0);
  const v = useVirtualizer({ count: rows, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 30 });

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
                title={l.at}
                className="absolute left-0 top-0 flex w-max min-w-full whitespace-pre hover:bg-muted/60"
                style={{ height: ROW_HEIGHT, transform: `translateY(${item.start}px)` }}
              >
                <span aria-hidden className="sticky left-0 w-16 shrink-0 select-none border-r bg-background pr-2 text-right text-muted-foreground/70">
                  {l.seq}
                </span>
                <span className={cn('pl-3 pr-4', l.stream === 'stderr' && 'text-destructive', l.stream === 'info' && 'text-muted-foreground')}>
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
