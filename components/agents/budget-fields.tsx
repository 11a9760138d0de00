'use client';

import { Input, Label } from '../ui/input';
import { Switch } from '../ui/switch';

export interface BudgetDraft {
  maxSkills: number;
  maxChars: number;
}

/** A budget override: off (null) follows `fallback`; on, its two limits. */
export function BudgetFields({
  idPrefix,
  value,
  onChange,
  fallback,
  fallbackLabel,
  disabled,
  error,
}: {
  idPrefix: string;
  value: BudgetDraft | null;
  onChange: (b: BudgetDraft | null) => void;
  fallback: BudgetDraft;
  fallbackLabel: string;
  disabled?: boolean;
  error?: string;
}) {
  const base = fallback;
  const num = (s: string) => (s.trim() === '' ? Number.NaN : Number(s));
  return (
    <div className="grid gap-2">
      <div className="flex items-center gap-2">
        <Switch id={`${idPrefix}-budget-own`} checked={value !== null} disabled={disabled} onCheckedChange={(on) => onChange(on ? { ...base } : null)} />
        <Label htmlFor={`${idPrefix}-budget-own`}>Own prompt budget</Label>
      </div>
      {value ? (
        <div className="grid gap-2 sm:grid-cols-2">
          <div className="grid gap-1.5">
            <Label htmlFor={`${idPrefix}-max-skills`}>Max skills</Label>
            <Input
              id={`${idPrefix}-max-skills`}
              type="number"
              min={1}
              inputMode="numeric"
              disabled={disabled}
              value={Number.isNaN(value.maxSkills) ? '' : value.maxSkills}
              onChange={(e) => onChange({ ...value, maxSkills: num(e.target.value) })}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${idPrefix}-max-chars`}>Max characters</Label>
            <Input
              id={`${idPrefix}-max-chars`}
              type="number"
              min={1}
              inputMode="numeric"
              disabled={disabled}
              value={Number.isNaN(value.maxChars) ? '' : value.maxChars}
              onChange={(e) => onChange({ ...value, maxChars: num(e.target.value) })}
            />
          </div>
        </div>
      ) : (
        <p className="text-xs text-muted-foreground">
          {fallbackLabel}: {base.maxSkills} skills, {base.maxChars.toLocaleString('en-US')} characters.
        </p>
      )}
      {error ? (
        <p role="alert" className="text-xs text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
