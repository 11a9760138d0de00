import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { TH } from './table';

/** A column header that sorts by `field`: ascending first, a second press descending (`-field`). */
export function SortHeader<F extends string>({
  label,
  field,
  sort,
  onSort,
  className,
}: {
  label: string;
  field: F;
  sort: string;
  onSort: (s: F | `-${F}`) => void;
  className?: string;
}) {
  const active = sort === field || sort === `-${field}`;
  const desc = sort === `-${field}`;
  const Icon = !active ? ArrowUpDown : desc ? ArrowDown : ArrowUp;
  return (
    <TH aria-sort={active ? (desc ? 'descending' : 'ascending') : 'none'} className={className}>
      <button
        type="button"
        onClick={() => onSort(active && !desc ? `-${field}` : field)}
        className="-mx-1 inline-flex items-center gap-1 rounded px-1 hover:text-foreground"
        title={`Sort by ${label.toLowerCase()}`}
      >
        {label} <Icon aria-hidden className="size-3.5" />
      </button>
    </TH>
  );
}
