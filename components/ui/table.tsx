import type * as React from 'react';
import { cn } from './cn';

/**
 * A table that scrolls sideways inside its own box on narrow screens. inline-size containment keeps
 * the table's width out of its ancestors' sizing, so a wide table cannot widen the card or the page.
 * With `scrollLabel` the box is a named region in the tab order, so a keyboard can scroll it too.
 */
export function Table({ className, scrollLabel, ...p }: React.TableHTMLAttributes<HTMLTableElement> & { scrollLabel?: string }) {
  return (
    <div
      className="relative w-full overflow-x-auto rounded-sm [contain:inline-size] focus-visible:outline-2 focus-visible:outline-ring"
      {...(scrollLabel ? { role: 'region', 'aria-label': scrollLabel, tabIndex: 0 } : {})}
    >
      <table className={cn('w-full caption-bottom text-sm', className)} {...p} />
    </div>
  );
}
export const THead = ({ className, ...p }: React.HTMLAttributes<HTMLTableSectionElement>) => <thead className={cn('[&_tr]:border-b', className)} {...p} />;
export const TBody = ({ className, ...p }: React.HTMLAttributes<HTMLTableSectionElement>) => (
  <tbody className={cn('[&_tr:last-child]:border-0', className)} {...p} />
);
export function TR({ className, ...p }: React.HTMLAttributes<HTMLTableRowElement>) {
  return <tr className={cn('border-b transition-colors hover:bg-muted/50', className)} {...p} />;
}
export function TH({ className, ...p }: React.ThHTMLAttributes<HTMLTableCellElement>) {
  return <th className={cn('h-9 px-3 text-left align-middle text-xs font-medium text-muted-foreground', className)} {...p} />;
}
export function TD({ className, ...p }: React.TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn('px-3 py-2 align-middle', className)} {...p} />;
}

/** Placeholder rows while a table loads. */
export function SkeletonRows({ rows, cols, className = 'h-4 w-full max-w-24' }: { rows: number; cols: number; className?: string }) {
  return (
    <>
      {Array.from({ length: rows }, (_, r) => (
        <TR key={r} aria-hidden>
          {Array.from({ length: cols }, (_, c) => (
            <TD key={c}>
              <div className={cn('animate-pulse rounded-md bg-muted', className)} />
            </TD>
          ))}
        </TR>
      ))}
    </>
  );
}

/** A header row of plain column titles, ending in a column for row actions that only screen readers name. */
export function ColumnHeads({ columns }: { columns: string[] }) {
  return (
    <THead>
      <TR className="hover:bg-transparent">
        {columns.map((c) => (
          <TH key={c}>{c}</TH>
        ))}
        <TH className="relative text-right">
          <span className="sr-only">Actions</span>
        </TH>
      </TR>
    </THead>
  );
}
