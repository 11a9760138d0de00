'use client';

import { Plus, RotateCcw, Save, Trash2, Undo2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Field, Input } from '../../ui/input';
import { ErrorNote, Tip } from '../../ui/misc';
import { Switch } from '../../ui/switch';
import { Textarea } from '../../ui/textarea';
import { RelativeTime } from '../../ui/time';
import { useCan } from '../../viewer';
import { useUpdateEntry } from '../queries';
import type { SkillDetailView } from '../view';
import { build, type EntryForm, type EnvRow, newRow, toForm } from './entry-form';

/** One env row: the name (fixed once stored), the value (secret; empty keeps a stored one) and remove/undo. */
function EnvRowEditor({
  row,
  error,
  disabled,
  onChange,
  onDrop,
}: {
  row: EnvRow;
  error?: string;
  disabled: boolean;
  onChange: (r: EnvRow) => void;
  onDrop: () => void;
}) {
  const valueId = `entry-env-${row.key}`;
  const label = row.name.trim() || 'New variable';
  return (
    <li className="grid gap-1" data-testid="env-row" data-env={row.name}>
      <div className="grid grid-cols-[minmax(0,14rem)_minmax(0,1fr)_auto] items-center gap-2">
        <Input
          aria-label="Variable name"
          value={row.name}
          readOnly={row.stored}
          onChange={(e) => onChange({ ...row, name: e.target.value })}
          placeholder="NAME"
          className="font-mono read-only:bg-muted/50"
          disabled={disabled}
          spellCheck={false}
          autoComplete="off"
        />
        <label htmlFor={valueId} className="sr-only">
          {label}
        </label>
        <Input
          id={valueId}
          type="password"
          value={row.value}
          onChange={(e) => onChange({ ...row, value: e.target.value, remove: false })}
          placeholder={row.remove ? 'will be removed' : row.stored ? 'configured — leave empty to keep' : 'value'}
          disabled={disabled || row.remove}
          autoComplete="new-password"
          aria-invalid={!!error}
        />
        {row.stored ? (
          <Button
            type="button"
            variant="ghost"
            size="icon"
            aria-label={row.remove ? `Keep ${label}` : `Remove ${label}`}
            aria-pressed={row.remove}
            onClick={() => onChange({ ...row, remove: !row.remove, value: '' })}
            disabled={disabled}
          >
            {row.remove ? <Undo2 aria-hidden /> : <Trash2 aria-hidden />}
          </Button>
        ) : (
          <Button type="button" variant="ghost" size="icon" aria-label={`Remove ${label}`} onClick={onDrop} disabled={disabled}>
            <Trash2 aria-hidden />
          </Button>
        )}
      </div>
      {error ? (
        <p role="alert" className="text-xs text-destructive">
          {error}
        </p>
      ) : null}
    </li>
  );
}

/** The skill's config entry (`skills.entries.<skillKey>`): enabled, env values, API key and a free-form config object. */
export function EntryEditor({ skill: s }: { skill: SkillDetailView }) {
  const can = useCan('skills.write');
  const entry = s.entry;
  const [form, setForm] = useState<EntryForm>(() => toForm(entry));
  const { input, errors, changed } = useMemo(() => build(form, entry), [form, entry]);
  const update = useUpdateEntry();
  const disabled = !can.allowed || update.isPending;
  const set = (patch: Partial<EntryForm>) => setForm((f) => ({ ...f, ...patch }));
  const setRow = (r: EnvRow) => set({ env: form.env.map((x) => (x.key === r.key ? r : x)) });
  const declared = [...s.manifest.requires.env].filter((n) => n !== s.manifest.primaryEnv && !form.env.some((r) => r.name === n));
  const apiStored = entry.apiKey === '***';
  const blocked = !can.allowed
    ? can.why
    : Object.keys(errors).length
      ? 'Fix the fields marked in red first.'
      : !changed.length
        ? 'Nothing has changed.'
        : undefined;

  const save = (e: React.FormEvent) => {
    e.preventDefault();
    if (!input || blocked) return;
    update.mutate(input, {
      onSuccess: () => toast.success('Config entry saved', { description: `Changed: ${changed.join(', ')}.` }),
    });
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Config entry</CardTitle>
        <CardDescription>
          Stored under <code className="font-mono text-foreground">{entry.skillKey}</code>. Values are encrypted and only ever shown masked.
          {entry.updatedAt ? (
            <>
              {' '}
              Last changed <RelativeTime iso={entry.updatedAt} /> by {entry.updatedBy ?? 'someone'}.
            </>
          ) : null}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={save} noValidate className="grid gap-5" aria-label="Config entry" data-testid="entry-editor">
          {!can.allowed ? <p className="text-sm text-muted-foreground">Read only: {can.why}</p> : null}
          <div className="flex items-center gap-3">
            <Switch
              id="entry-enabled"
              checked={form.enabled}
              onCheckedChange={(v) => set({ enabled: v })}
              disabled={disabled}
              aria-describedby="entry-enabled-hint"
            />
            <div className="grid gap-0.5">
              <label htmlFor="entry-enabled" className="text-sm font-medium">
                Enabled
              </label>
              <span id="entry-enabled-hint" className="text-xs text-muted-foreground">
                Off hides the skill from every agent, whatever else is configured.
              </span>
            </div>
          </div>
          <fieldset className="grid gap-2" disabled={disabled}>
            <legend className="mb-1 text-sm font-medium">Environment variables</legend>
            {form.env.length ? (
              <ul className="grid gap-2">
                {form.env.map((r) => (
                  <EnvRowEditor
                    key={r.key}
                    row={r}
                    error={errors[`env.${r.key}`]}
                    disabled={disabled}
                    onChange={setRow}
                    onDrop={() => set({ env: form.env.filter((x) => x.key !== r.key) })}
                  />
                ))}
              </ul>
            ) : (
              <p className="text-xs text-muted-foreground">None set. Values set here are injected when agents run this skill.</p>
            )}
            <div className="flex flex-wrap gap-2">
              <Button type="button" variant="outline" size="sm" onClick={() => set({ env: [...form.env, newRow()] })} disabled={disabled}>
                <Plus aria-hidden /> Add variable
              </Button>
              {declared.map((n) => (
                <Button
                  key={n}
                  type="button"
                  variant="ghost"
                  size="sm"
                  className="font-mono"
                  onClick={() => set({ env: [...form.env, newRow(n)] })}
                  disabled={disabled}
                >
                  <Plus aria-hidden /> {n}
                </Button>
              ))}
            </div>
          </fieldset>
          <Field
            label={s.manifest.primaryEnv ? `API key (${s.manifest.primaryEnv})` : 'API key'}
            htmlFor="entry-api-key"
            error={errors.apiKey}
            hint={
              form.removeApiKey
                ? 'The stored key will be removed when you save.'
                : apiStored
                  ? 'Configured — leave empty to keep.'
                  : s.manifest.primaryEnv
                    ? `Injected as ${s.manifest.primaryEnv}.`
                    : 'The skill declares no primaryEnv; the key is stored but not injected.'
            }
          >
            <div className="flex gap-2">
              <Input
                id="entry-api-key"
                type="password"
                value={form.apiKey}
                onChange={(e) => set({ apiKey: e.target.value, removeApiKey: false })}
                placeholder={apiStored ? '•••••••• (configured)' : ''}
                autoComplete="new-password"
                disabled={disabled}
                aria-invalid={!!errors.apiKey}
              />
              {apiStored ? (
                <Button
                  type="button"
                  variant="outline"
                  aria-pressed={form.removeApiKey}
                  onClick={() => set({ removeApiKey: !form.removeApiKey, apiKey: '' })}
                  disabled={disabled}
                >
                  <Trash2 aria-hidden /> {form.removeApiKey ? 'Keep' : 'Remove'}
                </Button>
              ) : null}
            </div>
          </Field>
          <Field label="Config (JSON)" htmlFor="entry-config" error={errors.config} hint="A JSON object the skill reads; checked as you type.">
            <Textarea
              id="entry-config"
              value={form.config}
              onChange={(e) => set({ config: e.target.value })}
              rows={6}
              spellCheck={false}
              className="font-mono text-xs"
              disabled={disabled}
              aria-invalid={!!errors.config}
              data-testid="entry-config"
            />
          </Field>
          <ErrorNote error={update.error} />
          <div className="flex flex-wrap items-center justify-end gap-2 border-t pt-4">
            <span className="mr-auto text-xs text-muted-foreground" aria-live="polite">
              {Object.keys(errors).length ? 'Fix the fields marked in red to save' : changed.length ? `Unsaved: ${changed.join(', ')}` : 'No unsaved changes'}
            </span>
            <Button type="button" variant="outline" onClick={() => setForm(toForm(entry))} disabled={disabled || !changed.length}>
              <RotateCcw aria-hidden /> Discard
            </Button>
            <Tip content={blocked}>
              <Button type="submit" disabled={disabled || !!blocked} data-testid="entry-save">
                <Save aria-hidden /> {update.isPending ? 'Saving…' : 'Save'}
              </Button>
            </Tip>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
