'use client';

import type * as React from 'react';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { Input, Select } from '../ui/input';

/** The row of a list's search box and filters; "Reset filters" shows only while any filter is set. */
export function FilterBar({ filtered, onReset, children }: { filtered: boolean; onReset: () => void; children: React.ReactNode }) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      {children}
      {filtered ? (
        <Button variant="ghost" size="sm" onClick={onReset}>
          Reset filters
        </Button>
      ) : null}
    </div>
  );
}

/** A search box of a filter bar; `label` is its accessible name. `className` sets its width. */
export function SearchFilter({
  label,
  placeholder,
  value,
  onChange,
  className,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  className: string;
}) {
  return (
    <Input
      type="search"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder={placeholder}
      aria-label={label}
      className={cn('h-8', className)}
    />
  );
}

export interface FilterOption<V extends string> {
  value: V;
  label: string;
}

/** A drop-down filter of a filter bar; `label` is its accessible name. `className` sets its width. */
export function SelectFilter<V extends string>({
  label,
  value,
  options,
  onChange,
  className,
}: {
  label: string;
  value: V;
  options: readonly FilterOption<V>[];
  onChange: (value: V) => void;
  className: string;
}) {
  return (
    <Select aria-label={label} value={value} onChange={(e) => onChange(e.target.value as V)} className={cn('h-8', className)}>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </Select>
  );
}

/** Options from a list of values and a label for each. */
export const optionsOf = <V extends string>(values: readonly V[], labels: Record<V, string>): FilterOption<V>[] =>
  values.map((value) => ({ value, label: labels[value] }));
