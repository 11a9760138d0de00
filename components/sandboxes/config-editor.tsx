'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { accessApi } from '@/lib/api/contracts/access';
import { type NetworkPolicy, OPEN_POLICY } from '@/lib/network/policy/types';
import {
  type CreateConfigInput,
  createConfigInput,
  cubeConfig,
  dockerConfig,
  e2bConfig,
  SANDBOX_BACKENDS,
  type SandboxBackend,
  SECRET_FIELDS,
  SECRET_MASK,
} from '@/lib/sandbox/config/schema';
import { applyIssues, get } from '../api';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import { Dialog } from '../ui/dialog';
import { Field, Input, Select } from '../ui/input';
import { ErrorNote } from '../ui/misc';
import { ConnectionTestSlot } from './check-slot';
import { DraftEnvEditor, type DraftVar } from './draft-env-editor';
import { CONNECT_FIELDS, ConfigFields, connectFields, type EditorValues, RUNTIME_FIELDS } from './editor-fields';
import { EnvEditor } from './env-editor';
import { draftCheck } from './network/entries';
import { NetworkPanel } from './network/network-dialog';
import { NetworkRulesFields } from './network/rules-fields';
import { type ConfigCardView, useCreateConfig, useUpdateConfig } from './queries';

const STEPS = ['Connect', 'Runtime', 'Env', 'Network'] as const;

/** Each backend's defaults, from its schema, with the fields a person must fill left empty. */
export function defaultsFor(backend: SandboxBackend): Record<string, unknown> {
  if (backend === 'docker') return { ...dockerConfig.parse({ image: 'busybox' }), image: '' };
  if (backend === 'e2b') return { ...e2bConfig.parse({}) };
  return { ...cubeConfig.parse({ apiUrl: 'https://x.invalid', domain: 'x.invalid', templateId: 'base' }), apiUrl: '', domain: '', templateId: '' };
}

type Values = EditorValues;

function initial(config: ConfigCardView | null): Values {
  if (!config) return { name: '', description: '', backend: 'docker', config: defaultsFor('docker') };
  const c: Record<string, unknown> = { ...defaultsFor(config.backend), ...config.config };
  for (const f of SECRET_FIELDS[config.backend]) if (c[f] === SECRET_MASK) c[f] = '';
  return { name: config.name, description: config.description, backend: config.backend, config: c };
}

/**
 * The step editor (Connect → Runtime → Env → Network), validated as you type by the same schema the
 * server uses. A new config's env and network rules are drafts sent with Create.
 */
export function ConfigEditor({
  open,
  onOpenChange,
  config,
  canWrite,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  config: ConfigCardView | null;
  canWrite: boolean;
}) {
  const [saved, setSaved] = useState<ConfigCardView | null>(null);
  const [step, setStep] = useState(0);
  const [error, setError] = useState<unknown>(null);
  const [envDraft, setEnvDraft] = useState<DraftVar[]>([]);
  const [netDraft, setNetDraft] = useState<NetworkPolicy>(OPEN_POLICY);
  const current = saved ?? config;
  const form = useForm<Values>({ resolver: zodResolver(createConfigInput as never) as never, mode: 'onChange', defaultValues: initial(current) });
  const backend = form.watch('backend');
  // The same query as the Settings instance card: which engine an empty Docker host means.
  const instance = useQuery({
    queryKey: ['instance'],
    queryFn: ({ signal }) => get(accessApi.instance, { signal }),
    enabled: open,
    staleTime: 60_000,
  });
  const create = useCreateConfig();
  const update = useUpdateConfig();
  const pending = create.isPending || update.isPending;
  const secretsConfigured = current && current.backend === backend ? current.secretsConfigured : [];

  function close(o: boolean) {
    if (!o) {
      setStep(0);
      setError(null);
      setSaved(null);
      setEnvDraft([]);
      setNetDraft(OPEN_POLICY);
    }
    onOpenChange(o);
  }

  async function next() {
    const keys = (step === 0 ? CONNECT_FIELDS : RUNTIME_FIELDS)[backend].map((f) => `config.${f.key}`);
    const ok = await form.trigger(step === 0 ? (['name', 'description', 'backend', ...keys] as never) : (keys as never));
    if (ok) setStep(step + 1);
  }

  const netCheck = useMemo(() => draftCheck(backend, netDraft), [backend, netDraft]);
  const netChanged = JSON.stringify(netDraft) !== JSON.stringify(OPEN_POLICY);

  const onSave = form.handleSubmit(
    async (values) => {
      setError(null);
      const v = values as unknown as CreateConfigInput;
      if (!current && netChanged && netCheck.issues.length) {
        setStep(3);
        return;
      }
      const cfg: Record<string, unknown> = { ...v.config };
      for (const f of SECRET_FIELDS[v.backend]) if (cfg[f] === '' && secretsConfigured.includes(f)) cfg[f] = SECRET_MASK;
      try {
        const out = current
          ? await update.mutateAsync({ id: current.id, patch: { name: v.name, description: v.description, backend: v.backend, config: cfg } })
          : await create.mutateAsync({
              ...v,
              config: cfg,
              ...(envDraft.length ? { env: envDraft } : {}),
              ...(netChanged ? { network: netDraft } : {}),
            } as CreateConfigInput);
        toast.success(current ? `Saved ${out.name}` : `Created ${out.name}`, { description: 'It stays disabled until a full check passes.' });
        setSaved({ ...out, instances: current?.instances ?? 0 });
        setStep(2);
      } catch (e) {
        if (!applyIssues(e, form.setError as never)) setError(e);
      }
    },
    (errs) => {
      // Create from a later step with a field to fix: back to the step that holds it.
      const connect = new Set<string>(['name', 'description', 'backend', ...CONNECT_FIELDS[backend].map((f) => f.key)]);
      const keys = [...Object.keys(errs), ...Object.keys((errs as { config?: object }).config ?? {})];
      setStep(keys.some((k) => connect.has(k)) ? 0 : 1);
    },
  );

  const errors = form.formState.errors;
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={current ? `Edit ${current.name}` : 'New sandbox config'}
      description="Connect to an engine or cluster, set the runtime limits, then the env every sandbox gets and what it may reach."
      className="max-w-2xl"
    >
      <ol className="flex gap-2 text-sm" aria-label="Steps">
        {STEPS.map((s, i) => (
          <li key={s}>
            <button
              type="button"
              className={cn('rounded-md px-2 py-1', i === step ? 'bg-primary/15 font-medium text-primary' : 'text-muted-foreground')}
              aria-current={i === step ? 'step' : undefined}
              onClick={() => setStep(i)}
            >
              {i + 1}. {s}
            </button>
          </li>
        ))}
      </ol>
      <form onSubmit={onSave} className="grid max-h-[60vh] gap-4 overflow-y-auto pr-1">
        <fieldset disabled={!canWrite} className="grid gap-4">
          {step === 0 ? (
            <>
              <div className="grid gap-3 sm:grid-cols-2">
                <Field label="Name" htmlFor="sbx-name" error={errors.name?.message}>
                  <Input id="sbx-name" autoComplete="off" aria-invalid={!!errors.name} {...form.register('name')} />
                </Field>
                <Field label="Backend" htmlFor="sbx-backend" error={errors.backend?.message}>
                  <Select
                    id="sbx-backend"
                    {...form.register('backend', { onChange: (e) => form.setValue('config', defaultsFor(e.target.value as SandboxBackend)) })}
                  >
                    {SANDBOX_BACKENDS.map((b) => (
                      <option key={b} value={b}>
                        {b === 'docker' ? 'Docker' : b === 'e2b' ? 'E2B' : 'CubeSandbox'}
                      </option>
                    ))}
                  </Select>
                </Field>
              </div>
              <Field label="Description" htmlFor="sbx-description" error={errors.description?.message}>
                <Input id="sbx-description" {...form.register('description')} />
              </Field>
              <ConfigFields
                fields={connectFields(backend, instance.data?.docker.endpoint)}
                register={form.register}
                errors={errors}
                disabled={!canWrite}
                secretsConfigured={secretsConfigured}
              />
              <ConnectionTestSlot
                configId={current?.id ?? null}
                backend={backend}
                values={() => form.getValues('config')}
                secretsConfigured={secretsConfigured}
              />
            </>
          ) : step === 1 ? (
            <ConfigFields
              fields={RUNTIME_FIELDS[backend]}
              register={form.register}
              errors={errors}
              disabled={!canWrite}
              secretsConfigured={secretsConfigured}
            />
          ) : null}
        </fieldset>
        {step === 2 ? (
          current ? (
            <EnvEditor configId={current.id} canWrite={canWrite} />
          ) : (
            <DraftEnvEditor vars={envDraft} onChange={setEnvDraft} disabled={!canWrite} />
          )
        ) : null}
        {step === 3 ? (
          current ? (
            <NetworkPanel config={current} canWrite={canWrite} />
          ) : (
            <div className="grid gap-3" data-testid="draft-network">
              <NetworkRulesFields
                backend={backend}
                draft={netDraft}
                issues={netCheck.issues}
                warnings={netCheck.warnings}
                disabled={!canWrite}
                onChange={(patch) => setNetDraft((d) => ({ ...d, ...patch }))}
              />
              <p className="text-xs text-muted-foreground">
                Saved with the config when you create it; the tester and the enforcement status show once it exists.
              </p>
            </div>
          )
        ) : null}
        <ErrorNote error={error} />
        <div className="flex justify-between gap-2">
          <Button type="button" variant="outline" onClick={() => (step === 0 ? close(false) : setStep(step - 1))}>
            {step === 0 ? 'Cancel' : 'Back'}
          </Button>
          <div className="flex gap-2">
            {step < 3 ? (
              <Button type="button" variant="outline" onClick={next}>
                Next
              </Button>
            ) : null}
            {step < 2 || !current ? (
              <Button type="submit" disabled={!canWrite || pending}>
                {pending ? 'Saving…' : current ? 'Save' : 'Create'}
              </Button>
            ) : (
              <Button type="button" onClick={() => close(false)}>
                Done
              </Button>
            )}
          </div>
        </div>
      </form>
    </Dialog>
  );
}
