'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { type FieldErrors, type Resolver, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { updateRuntimeSettingsAction } from '@/app/(console)/settings/actions';
import { type RuntimeSettings as RuntimeSettingsValues, runtimeSettingsSchema as runtimeSettingsClientSchema } from '@/lib/settings/runtime-settings';
import { ApiError, api } from '../api';
import { Badge } from '../ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { cn } from '../ui/cn';
import { CheckField, Field, Input } from '../ui/input';
import { ErrorNote, RetryableError, Skeleton } from '../ui/misc';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { SettingsSaveBar } from './save-bar';

// The server's own schema: no Node imports, so the form validates with exactly the server's rules.
type RuntimeSettingsKey = keyof RuntimeSettingsValues;
const RUNTIME_SETTINGS_KEYS = Object.keys(runtimeSettingsClientSchema.shape) as RuntimeSettingsKey[];

export const runtimeSettingsKey = ['settings', 'runtime'] as const;

/** The form holds text: lists are one item per line (URLs) or separated by commas/spaces (binaries). */
interface FormValues {
  pipIndexUrl: string;
  pipExtraIndexUrls: string;
  pipFindLinks: string;
  pipNoIndex: boolean;
  npmRegistry: string;
  binaries: string;
  aptAutoUpdate: boolean;
  updateTtlMinutes: string;
  updateCheckIntervalHours: string;
}

const lines = (s: string) =>
  s
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
export const splitBinaries = (s: string) => s.split(/[\s,]+/).filter(Boolean);
/** A whole number as typed, or the text itself so the schema reports it as not a number. */
const num = (s: string): number | string => (/^\s*-?\d+\s*$/.test(s) ? Number(s) : s.trim());

const BLANK: FormValues = {
  pipIndexUrl: '',
  pipExtraIndexUrls: '',
  pipFindLinks: '',
  pipNoIndex: false,
  npmRegistry: '',
  binaries: '',
  aptAutoUpdate: true,
  updateTtlMinutes: '60',
  updateCheckIntervalHours: '6',
};

function toForm(s: RuntimeSettingsValues): FormValues {
  return {
    pipIndexUrl: s.pipIndexUrl,
    pipExtraIndexUrls: s.pipExtraIndexUrls.join('\n'),
    pipFindLinks: s.pipFindLinks.join('\n'),
    pipNoIndex: s.pipNoIndex,
    npmRegistry: s.npmRegistry,
    binaries: s.binaries.join(' '),
    aptAutoUpdate: s.aptAutoUpdate,
    updateTtlMinutes: String(s.updateTtlMinutes),
    updateCheckIntervalHours: String(s.updateCheckIntervalHours),
  };
}

function fromForm(v: FormValues) {
  return {
    pipIndexUrl: v.pipIndexUrl.trim(),
    pipExtraIndexUrls: lines(v.pipExtraIndexUrls),
    pipFindLinks: lines(v.pipFindLinks),
    pipNoIndex: v.pipNoIndex,
    npmRegistry: v.npmRegistry.trim(),
    binaries: splitBinaries(v.binaries),
    aptAutoUpdate: v.aptAutoUpdate,
    updateTtlMinutes: num(v.updateTtlMinutes),
    updateCheckIntervalHours: num(v.updateCheckIntervalHours),
  };
}

/** Which item of a list field an issue is about, in the words of its input. */
function itemLabel(field: string, index: number, raw: ReturnType<typeof fromForm>): string {
  if (field === 'binaries') return `“${raw.binaries[index]}”`;
  const list = (raw as Record<string, unknown>)[field];
  return Array.isArray(list) ? `Line ${index + 1} (${String(list[index])})` : `Item ${index + 1}`;
}

/** A message for an issue on `field` (a server issue path or a zod path), prefixed with the item it is about. */
function issueMessage(path: (string | number)[], message: string, raw: ReturnType<typeof fromForm>): string {
  const [field, index] = path;
  if (field === 'updateTtlMinutes' || field === 'updateCheckIntervalHours') {
    if (typeof (raw as Record<string, unknown>)[field] !== 'number') return 'Enter a whole number';
  }
  return typeof index === 'number' || (typeof index === 'string' && /^\d+$/.test(index))
    ? `${itemLabel(String(field), Number(index), raw)}: ${message}`
    : message;
}

/** Validation as you type: the form's text turned into settings and checked with the settings schema. */
const resolver: Resolver<FormValues> = async (values) => {
  const raw = fromForm(values);
  const r = runtimeSettingsClientSchema.safeParse(raw);
  if (r.success) return { values, errors: {} };
  const errors: FieldErrors<FormValues> = {};
  for (const issue of r.error.issues) {
    const field = String(issue.path[0] ?? '') as keyof FormValues;
    if (!field || errors[field]) continue;
    errors[field] = { type: issue.code, message: issueMessage(issue.path as (string | number)[], issue.message, raw) };
  }
  return { values: {}, errors };
};

/** The fields whose value differs from what is stored. */
function changedFields(stored: RuntimeSettingsValues, next: RuntimeSettingsValues): Partial<RuntimeSettingsValues> {
  const out: Record<string, unknown> = {};
  for (const k of RUNTIME_SETTINGS_KEYS) if (JSON.stringify(stored[k]) !== JSON.stringify(next[k])) out[k] = next[k];
  return out as Partial<RuntimeSettingsValues>;
}

const LABELS: Record<RuntimeSettingsKey, string> = {
  pipIndexUrl: 'pip index URL',
  pipExtraIndexUrls: 'extra index URLs',
  pipFindLinks: 'find-links',
  pipNoIndex: 'only find-links',
  npmRegistry: 'npm registry',
  binaries: 'binaries to detect',
  aptAutoUpdate: 'apt auto-update',
  updateTtlMinutes: 'update TTL',
  updateCheckIntervalHours: 'check interval',
};

/** Settings → Package sources: pip indexes, npm registry, detected binaries and update checks. */
export function RuntimeSettingsCard() {
  const qc = useQueryClient();
  const can = useCan('packages.write');
  const q = useQuery({ queryKey: runtimeSettingsKey, queryFn: ({ signal }) => api<RuntimeSettingsValues>('/api/v1/settings/runtime', { signal }) });
  const form = useForm<FormValues>({ resolver, mode: 'onChange', defaultValues: BLANK });
  const { errors } = form.formState;
  const stored = q.data;

  // Load (and reload after a save) what the server holds, unless the user is mid-edit.
  useEffect(() => {
    if (stored && !form.formState.isDirty) form.reset(toForm(stored));
  }, [stored, form]);

  const values = form.watch();
  const parsed = useMemo(() => runtimeSettingsClientSchema.safeParse(fromForm(values)), [values]);
  const isValid = parsed.success;
  const changes = stored && parsed.success ? changedFields(stored, parsed.data) : {};
  const changedKeys = Object.keys(changes) as RuntimeSettingsKey[];

  const save = useOperation(updateRuntimeSettingsAction, {
    input: (patch: Partial<RuntimeSettingsValues>) => ({ body: patch }),
    onSuccess: (next, patch) => {
      qc.setQueryData(runtimeSettingsKey, next);
      form.reset(toForm(next));
      // The binaries list changes what the runtime check detects; the update settings what is stale.
      void qc.invalidateQueries({ queryKey: ['packages'] });
      const names = Object.keys(patch).map((k) => LABELS[k as RuntimeSettingsKey] ?? k);
      toast.success('Package sources saved', { description: `Changed: ${names.join(', ')}.` });
    },
    onError: (e) => {
      if (e instanceof ApiError && e.issues.length) {
        const raw = fromForm(form.getValues());
        for (const i of e.issues) {
          const path = i.path.split('.');
          const field = path[0] as keyof FormValues;
          if (field in LABELS) form.setError(field, { type: 'server', message: issueMessage(path, i.message, raw) });
        }
      }
    },
  });

  const onSubmit = form.handleSubmit(() => {
    if (!changedKeys.length || !can.allowed) return;
    save.mutate(changes);
  });

  const disabled = !can.allowed || save.isPending;
  const binaries = splitBinaries(values.binaries);
  const binaryOk = (b: string) => /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/.test(b);
  const serverError = save.error && !(save.error instanceof ApiError && save.error.issues.length) ? save.error : null;
  const saveBlocked = !can.allowed ? can.why : !isValid ? 'Fix the fields marked in red first.' : !changedKeys.length ? 'Nothing has changed.' : undefined;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Package sources</CardTitle>
        <CardDescription>Where pip and npm install from, which programs the runtime check looks for, and how often updates are checked.</CardDescription>
      </CardHeader>
      <CardContent>
        {q.error && !stored ? (
          <RetryableError error={q.error} onRetry={() => void q.refetch()} />
        ) : !stored ? (
          <div className="grid gap-4 sm:grid-cols-2" role="status" aria-busy="true" aria-label="Loading package sources">
            {Array.from({ length: 6 }, (_, n) => (
              <div key={n} className="grid gap-1.5">
                <Skeleton className="h-3 w-28" />
                <Skeleton className="h-9 w-full" />
              </div>
            ))}
          </div>
        ) : (
          <form onSubmit={onSubmit} noValidate aria-label="Package sources" data-testid="runtime-settings-form">
            <fieldset disabled={disabled} className="grid gap-6">
              {!can.allowed ? <p className="text-sm text-muted-foreground">Read only: {can.why}</p> : null}
              <ErrorNote error={serverError} />

              <div className="grid gap-4">
                <h3 className="text-sm font-semibold">Python (pip)</h3>
                <div className="grid gap-4 md:grid-cols-2">
                  <Field
                    label="pip index URL"
                    htmlFor="rs-pip-index"
                    error={errors.pipIndexUrl?.message}
                    hint="pip --index-url. Empty: pip’s own configuration (PyPI)."
                  >
                    <Input
                      id="rs-pip-index"
                      placeholder="https://pypi.org/simple"
                      autoComplete="off"
                      spellCheck={false}
                      aria-invalid={!!errors.pipIndexUrl}
                      {...form.register('pipIndexUrl')}
                    />
                  </Field>
                  <Field
                    label="Extra index URLs"
                    htmlFor="rs-pip-extra"
                    error={errors.pipExtraIndexUrls?.message}
                    hint="pip --extra-index-url, one per line, in order (up to 10)."
                  >
                    <TextArea
                      id="rs-pip-extra"
                      rows={3}
                      placeholder="https://download.pytorch.org/whl/cpu"
                      invalid={!!errors.pipExtraIndexUrls}
                      {...form.register('pipExtraIndexUrls')}
                    />
                  </Field>
                  <Field
                    label="Find-links"
                    htmlFor="rs-pip-find"
                    error={errors.pipFindLinks?.message}
                    hint="pip --find-links: local wheel folders (absolute paths) or pages of links, one per line."
                  >
                    <TextArea id="rs-pip-find" rows={3} placeholder="/srv/wheels" invalid={!!errors.pipFindLinks} {...form.register('pipFindLinks')} />
                  </Field>
                  <div className="grid content-start gap-1.5 md:pt-6">
                    <CheckField
                      id="rs-pip-no-index"
                      label="Only use find-links (no index)"
                      hint="pip --no-index, for hosts without internet access."
                      {...form.register('pipNoIndex')}
                    />
                  </div>
                </div>
              </div>

              <div className="grid gap-4">
                <h3 className="text-sm font-semibold">Node (npm)</h3>
                <div className="grid gap-4 md:grid-cols-2">
                  <Field label="npm registry URL" htmlFor="rs-npm-registry" error={errors.npmRegistry?.message} hint="Empty: https://registry.npmjs.org/">
                    <Input
                      id="rs-npm-registry"
                      placeholder="https://registry.npmjs.org/"
                      autoComplete="off"
                      spellCheck={false}
                      aria-invalid={!!errors.npmRegistry}
                      {...form.register('npmRegistry')}
                    />
                  </Field>
                </div>
              </div>

              <div className="grid gap-4">
                <h3 className="text-sm font-semibold">Runtime check and system packages</h3>
                <div className="grid gap-4 md:grid-cols-2">
                  <Field
                    label="Binaries to detect"
                    htmlFor="rs-binaries"
                    error={errors.binaries?.message}
                    hint="Programs skills commonly need, separated by commas or spaces; shown on the Runtime page."
                  >
                    <Input
                      id="rs-binaries"
                      autoComplete="off"
                      spellCheck={false}
                      aria-invalid={!!errors.binaries}
                      aria-describedby="rs-binaries-chips"
                      {...form.register('binaries')}
                    />
                  </Field>
                  <div className="grid content-start gap-1.5 md:pt-6">
                    <CheckField
                      id="rs-apt-update"
                      label="apt auto-update"
                      hint="Run apt-get update before an install when the package lists are stale and the package is not found."
                      {...form.register('aptAutoUpdate')}
                    />
                  </div>
                </div>
                <ul id="rs-binaries-chips" aria-label="Binaries that will be detected" className="flex flex-wrap gap-1.5">
                  {binaries.length ? (
                    binaries.map((b, i) => (
                      <li key={`${b}-${i}`}>
                        <Badge
                          variant={binaryOk(b) ? 'secondary' : 'destructive'}
                          className="font-mono"
                          title={binaryOk(b) ? undefined : 'Not a valid program name'}
                        >
                          {b}
                        </Badge>
                      </li>
                    ))
                  ) : (
                    <li className="text-xs text-muted-foreground">No binaries: the runtime check shows only the languages.</li>
                  )}
                </ul>
              </div>

              <div className="grid gap-4">
                <h3 className="text-sm font-semibold">Update checks</h3>
                <div className="grid gap-4 md:grid-cols-2">
                  <Field
                    label="Update TTL (minutes)"
                    htmlFor="rs-ttl"
                    error={errors.updateTtlMinutes?.message}
                    hint="Results older than this are re-checked when the updates list is read (1 to 10080)."
                  >
                    <Input
                      id="rs-ttl"
                      inputMode="numeric"
                      autoComplete="off"
                      className="w-40"
                      aria-invalid={!!errors.updateTtlMinutes}
                      {...form.register('updateTtlMinutes')}
                    />
                  </Field>
                  <Field
                    label="Scheduled check interval (hours)"
                    htmlFor="rs-interval"
                    error={errors.updateCheckIntervalHours?.message}
                    hint="0 turns the scheduled check off (up to 168)."
                  >
                    <Input
                      id="rs-interval"
                      inputMode="numeric"
                      autoComplete="off"
                      className="w-40"
                      aria-invalid={!!errors.updateCheckIntervalHours}
                      {...form.register('updateCheckIntervalHours')}
                    />
                  </Field>
                </div>
              </div>
            </fieldset>

            <SettingsSaveBar
              valid={isValid}
              changed={changedKeys.map((k) => LABELS[k])}
              disabled={disabled}
              discardDisabled={!form.formState.isDirty}
              onDiscard={() => form.reset(toForm(stored))}
              blocked={saveBlocked}
              saving={save.isPending}
            />
          </form>
        )}
      </CardContent>
    </Card>
  );
}

const TextArea = ({
  invalid,
  className,
  ...p
}: React.TextareaHTMLAttributes<HTMLTextAreaElement> & { invalid?: boolean; ref?: React.Ref<HTMLTextAreaElement> }) => (
  <textarea
    autoComplete="off"
    spellCheck={false}
    aria-invalid={invalid}
    className={cn(
      'w-full rounded-md border border-input bg-background px-3 py-2 font-mono text-[13px] shadow-xs placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive',
      className,
    )}
    {...p}
  />
);
