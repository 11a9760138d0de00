import { Fragment } from 'react';
import type { Highlight } from './view';

/** Text with the given [start, end) ranges wrapped in <mark>; the text is never interpreted as HTML. */
export function Marked({ text, ranges }: { text: string; ranges: [number, number][] }) {
  const parts: React.ReactNode[] = [];
  let at = 0;
  const sorted = [...ranges].filter(([s, e]) => s >= 0 && e <= text.length && s < e).sort((a, b) => a[0] - b[0]);
  for (const [s, e] of sorted) {
    if (s < at) continue;
    if (s > at) parts.push(<Fragment key={`t${at}`}>{text.slice(at, s)}</Fragment>);
    parts.push(
      <mark key={`m${s}`} className="rounded-sm bg-warning/40 px-0.5 text-foreground">
        {text.slice(s, e)}
      </mark>,
    );
    at = e;
  }
  if (at < text.length) parts.push(<Fragment key={`t${at}`}>{text.slice(at)}</Fragment>);
  return <>{parts}</>;
}

export const highlightOf = (hs: Highlight[] | undefined, field: Highlight['field']) => hs?.find((h) => h.field === field && h.ranges.length);

/** Cuts a description to about `max` characters at a word boundary. */
export function truncate(text: string, max = 140): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
