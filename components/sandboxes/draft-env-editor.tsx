'use client';

import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { setConfigEnvInput } from '@/lib/sandbox/env/rules';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Field, Input } from '../ui/input';

export interface DraftVar {
  name: string;
  value: string;
}

/** The env of a config not saved yet: kept in the form, sent with Create, sealed on the server. */
export function DraftEnvEditor({ vars, onChange, disabled }: { vars: DraftVar[]; onChange: (vars: DraftVar[]) => void; disabled: boolean }) {
  const [draft, setDraft] = useState<DraftVar>({ name: '', value: '' });
  const [issues, setIssues] = useState<Record<string, string>>({});
  const add = () => {
    const parsed = setConfigEnvInput.safeParse(draft);
    const twice = vars.some((v) => v.name === draft.name);
    if (!parsed.success || twice) {
      setIssues(
        parsed.success
          ? { name: `${draft.name} is already in the list.` }
          : Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? 'name'), i.message])),
      );
      return;
    }
    setIssues({});
    onChange([...vars, parsed.data]);
    setDraft({ name: '', value: '' });
  };
  return (
    <div className="grid gap-3" data-testid="draft-env">
      <p className="text-sm text-muted-foreground">
        Injected into every sandbox of this config and readable by every script in it: keep credentials scripts must not read out of here. Set with the config
        when you create it.
      </p>
      {vars.length === 0 ? (
        <p className="text-sm">No env vars yet.</p>
      ) : (
        <ul className="grid gap-1">
          {vars.map((v) => (
            <li key={v.name} className="flex items-center justify-between gap-2 rounded-md border px-3 py-1.5 text-sm">
              <span className="font-mono">{v.name}</span>
              <span className="flex items-center gap-2 text-xs text-muted-foreground">
                <Badge variant="secondary">set on create</Badge>
                <Button
                  type="button"
                  size="icon"
                  variant="ghost"
                  aria-label={`Remove ${v.name}`}
                  disabled={disabled}
                  onClick={() => onChange(vars.filter((x) => x.name !== v.name))}
                >
                  <Trash2 aria-hidden />
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <div className="grid gap-2 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
        <Field label="Name" htmlFor="env-name" error={issues.name}>
          <Input
            id="env-name"
            autoComplete="off"
            className="font-mono"
            aria-invalid={!!issues.name}
            disabled={disabled}
            value={draft.name}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
        </Field>
        <Field label="Value" htmlFor="env-value" error={issues.value}>
          <Input
            id="env-value"
            type="password"
            autoComplete="new-password"
            disabled={disabled}
            value={draft.value}
            onChange={(e) => setDraft({ ...draft, value: e.target.value })}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
        </Field>
        <Button type="button" onClick={add} disabled={disabled}>
          Add
        </Button>
      </div>
    </div>
  );
}
