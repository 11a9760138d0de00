'use client';

import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { type EnvVarView, personalEnvInput } from '@/lib/sandbox/env/rules';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Confirm } from '../ui/dialog';
import { Field, Input, Select } from '../ui/input';
import { ErrorNote, Skeleton } from '../ui/misc';
import { RelativeTime } from '../ui/time';
import { useSandboxConfigs } from './queries';

type Level = 'personal_sandbox' | 'personal_skill';
type SetBody =
  | { level: 'personal_sandbox'; configId: string; name: string; value: string }
  | { level: 'personal_skill'; skillKey: string; name: string; value: string };
type UnsetBody = { level: 'personal_sandbox'; configId: string; name: string } | { level: 'personal_skill'; skillKey: string; name: string };

interface Mutation<B> {
  isPending: boolean;
  mutateAsync(body: B): Promise<unknown>;
  mutate(body: B, opts: { onError: (e: Error) => void; onSettled: () => void }): void;
}

export interface PersonalEnvCardProps {
  /** Prefix of the form's element ids (unique on the page). */
  id: string;
  title: string;
  description: string;
  empty: string;
  /** Said in the removal dialog: what applies once the value is gone. */
  removeNote: string;
  can: { allowed: boolean; why?: string };
  list: { isPending: boolean; error: unknown; data?: { items: EnvVarView[] } };
  set: Mutation<SetBody>;
  unset: Mutation<UnsetBody>;
  /** The config the form starts with (an agent's own config). */
  configId?: string;
}

/**
 * A principal's own variables (a person's, or an agent's): per sandbox config or per skill, over the
 * workspace's; values are write-only.
 */
export function PersonalEnvCard({ id, title, description, empty, removeNote, can, list, set, unset, configId = '' }: PersonalEnvCardProps) {
  const { allowed, why } = can;
  const configs = useSandboxConfigs();
  const blank = { level: 'personal_sandbox' as Level, configId, skillKey: '', name: '', value: '' };
  const [draft, setDraft] = useState(blank);
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [removing, setRemoving] = useState<EnvVarView | null>(null);
  const configName = (id: string | null) => configs.data?.items.find((c) => c.id === id)?.name ?? id ?? '';

  const input = () =>
    draft.level === 'personal_sandbox'
      ? { level: draft.level, configId: draft.configId, name: draft.name, value: draft.value }
      : { level: draft.level, skillKey: draft.skillKey, name: draft.name, value: draft.value };

  const onSet = async () => {
    setError(null);
    const parsed = personalEnvInput.safeParse(input());
    if (!parsed.success) {
      setIssues(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? 'name'), i.message])));
      return;
    }
    setIssues({});
    try {
      await set.mutateAsync(parsed.data);
      toast.success(`${draft.name} set`);
      setDraft({ ...blank, level: draft.level, configId: draft.configId, skillKey: draft.skillKey });
    } catch (e) {
      setError(e);
    }
  };

  return (
    <Card data-testid={`${id}-card`}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {list.isPending ? (
          <Skeleton className="h-12 w-full" />
        ) : list.error || !list.data ? (
          <ErrorNote error={list.error} />
        ) : list.data.items.length === 0 ? (
          <p className="text-sm text-muted-foreground">{empty}</p>
        ) : (
          <ul className="grid gap-1" data-testid={`${id}-list`}>
            {list.data.items.map((v) => (
              <li
                key={`${v.level}:${v.configId ?? v.skillKey}:${v.name}`}
                className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-1.5 text-sm"
              >
                <span className="flex min-w-0 items-center gap-2">
                  <span className="font-mono">{v.name}</span>
                  <Badge variant="secondary">{v.level === 'personal_sandbox' ? `config ${configName(v.configId)}` : `skill ${v.skillKey}`}</Badge>
                </span>
                <span className="flex items-center gap-2 text-xs text-muted-foreground">
                  set <RelativeTime iso={v.updatedAt} />
                  <Button
                    type="button"
                    size="icon"
                    variant="ghost"
                    aria-label={`Remove ${v.name}`}
                    disabled={!allowed}
                    title={why}
                    onClick={() => setRemoving(v)}
                  >
                    <Trash2 aria-hidden />
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        )}
        {allowed ? (
          <div className="grid gap-2 md:grid-cols-[10rem_1fr_1fr_1fr_auto] md:items-end">
            <Field label="For" htmlFor={`${id}-level`}>
              <Select id={`${id}-level`} value={draft.level} onChange={(e) => setDraft({ ...draft, level: e.target.value as Level })}>
                <option value="personal_sandbox">a sandbox config</option>
                <option value="personal_skill">a skill</option>
              </Select>
            </Field>
            {draft.level === 'personal_sandbox' ? (
              <Field label="Config" htmlFor={`${id}-config`} error={issues.configId}>
                <Select id={`${id}-config`} value={draft.configId} onChange={(e) => setDraft({ ...draft, configId: e.target.value })}>
                  <option value="">Choose…</option>
                  {configs.data?.items.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </Select>
              </Field>
            ) : (
              <Field label="Skill key" htmlFor={`${id}-skill`} error={issues.skillKey}>
                <Input id={`${id}-skill`} className="font-mono" value={draft.skillKey} onChange={(e) => setDraft({ ...draft, skillKey: e.target.value })} />
              </Field>
            )}
            <Field label="Name" htmlFor={`${id}-name`} error={issues.name}>
              <Input
                id={`${id}-name`}
                className="font-mono"
                autoComplete="off"
                value={draft.name}
                onChange={(e) => setDraft({ ...draft, name: e.target.value })}
              />
            </Field>
            <Field label="Value" htmlFor={`${id}-value`} error={issues.value}>
              <Input
                id={`${id}-value`}
                type="password"
                autoComplete="new-password"
                value={draft.value}
                onChange={(e) => setDraft({ ...draft, value: e.target.value })}
              />
            </Field>
            <Button type="button" onClick={onSet} disabled={set.isPending}>
              {set.isPending ? 'Setting…' : 'Set'}
            </Button>
          </div>
        ) : (
          <p className="text-xs text-muted-foreground">{why}</p>
        )}
        <ErrorNote error={error} />
        <Confirm
          open={removing !== null}
          onOpenChange={(o) => !o && setRemoving(null)}
          title={`Remove ${removing?.name}?`}
          description={removeNote}
          confirmLabel="Remove"
          busy={unset.isPending}
          onConfirm={() => {
            const v = removing;
            if (!v) return;
            const body =
              v.level === 'personal_sandbox'
                ? { level: 'personal_sandbox' as const, configId: v.configId ?? '', name: v.name }
                : { level: 'personal_skill' as const, skillKey: v.skillKey ?? '', name: v.name };
            unset.mutate(body, {
              onError: (e) => toast.error(`Could not remove ${v.name}`, { description: e.message }),
              onSettled: () => setRemoving(null),
            });
          }}
        />
      </CardContent>
    </Card>
  );
}
