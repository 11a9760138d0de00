'use client';

import { TriangleAlert, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Input } from '../ui/input';

/**
 * A list of skill names as removable chips, with an input that adds one name (or several, separated
 * by commas or spaces) on Enter. Names no catalog skill has stay in the list, marked as warnings:
 * they apply once such a skill appears.
 */
export function SkillListEditor({
  id,
  label,
  value,
  onChange,
  known,
  disabled,
  testId,
}: {
  id: string;
  label: string;
  value: string[];
  onChange: (next: string[]) => void;
  known: ReadonlySet<string> | null;
  disabled?: boolean;
  testId?: string;
}) {
  const [text, setText] = useState('');
  const listId = useId();
  const unknown = known ? value.filter((n) => !known.has(n)) : [];
  const add = () => {
    const names = text
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    if (!names.length) return;
    onChange([...value, ...names.filter((n, i) => !value.includes(n) && names.indexOf(n) === i)]);
    setText('');
  };
  return (
    <div className="grid gap-2" data-testid={testId}>
      <div className="flex gap-2">
        <Input
          id={id}
          value={text}
          disabled={disabled}
          list={listId}
          placeholder="Add a skill name…"
          aria-label={`Add to ${label}`}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
          className="h-8"
        />
        <Button type="button" size="sm" variant="outline" disabled={disabled || !text.trim()} onClick={add}>
          Add
        </Button>
        {value.length ? (
          <Button type="button" size="sm" variant="ghost" disabled={disabled} onClick={() => onChange([])}>
            Clear
          </Button>
        ) : null}
      </div>
      {known ? (
        <datalist id={listId}>
          {[...known]
            .filter((n) => !value.includes(n))
            .slice(0, 500)
            .map((n) => (
              <option key={n} value={n} />
            ))}
        </datalist>
      ) : null}
      {value.length ? (
        <ul className="flex max-h-48 flex-wrap gap-1.5 overflow-y-auto" aria-label={label}>
          {value.map((n) => {
            const missing = !!known && !known.has(n);
            return (
              <li key={n}>
                <Badge
                  variant={missing ? 'warning' : 'secondary'}
                  className="gap-1 pr-1 font-mono"
                  title={missing ? 'No skill of this name is known' : undefined}
                >
                  {missing ? <TriangleAlert aria-hidden className="size-3" /> : null}
                  {n}
                  <button
                    type="button"
                    disabled={disabled}
                    aria-label={`Remove ${n} from ${label}`}
                    onClick={() => onChange(value.filter((x) => x !== n))}
                    className="rounded-full p-0.5 hover:bg-foreground/10 focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-50"
                  >
                    <X aria-hidden className="size-3" />
                  </button>
                </Badge>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="text-xs text-muted-foreground">Empty.</p>
      )}
      {unknown.length ? (
        <p className="text-xs text-muted-foreground" role="status" data-testid={testId ? `${testId}-unknown` : undefined}>
          {unknown.length === 1
            ? `No skill named “${unknown[0]}” is known`
            : `${unknown.length} names match no known skill (${unknown.slice(0, 5).join(', ')})`}
          : kept, and applied once such a skill appears.
        </p>
      ) : null}
    </div>
  );
}
