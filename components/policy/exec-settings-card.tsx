'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { updatePolicySettingsAction } from '@/app/(console)/policy/actions';
import { policyApi } from '@/lib/api/contracts/policy';
import { type PolicySettings, policySettingsSchema } from '@/lib/settings/policy-settings';
import { applyIssues, get } from '../api';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Field, Input, Select } from '../ui/input';
import { ErrorNote, RetryableError, Skeleton, Tip } from '../ui/misc';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';

const key = ['exec-policy', 'settings'] as const;
const NUMBERS: { name: Exclude<keyof PolicySettings, 'approvalMode'>; label: string; hint: string }[] = [
  { name: 'approvalTimeoutSeconds', label: 'Approval timeout (seconds)', hint: 'A request not decided in this time expires (1 to 3600).' },
  { name: 'defaultTimeoutMs', label: 'Default exec timeout (ms)', hint: 'For an exec that names no timeout (100 to 3600000).' },
  { name: 'outputCapBytes', label: 'Output cap (bytes)', hint: 'Kept of stdout and of stderr each; the rest is cut and flagged (1024 to 67108864).' },
  { name: 'maxTimeoutMs', label: 'Longest exec timeout (ms)', hint: 'An exec asking for more is refused (100 to 3600000).' },
  { name: 'maxConcurrentPerAgent', label: 'Commands at once per agent', hint: 'The next one is refused with 429 until one ends (1 to 64).' },
];

/** How the gateway's exec waits for approvals, and its default timeout and output cap. */
export function ExecSettingsCard() {
  const qc = useQueryClient();
  const { allowed, why } = useCan('policy.write');
  const q = useQuery({ queryKey: key, queryFn: ({ signal }) => get(policyApi.policySettings, { signal }) });
  const form = useForm<PolicySettings>({ resolver: zodResolver(policySettingsSchema as never) as never, mode: 'onChange' });
  const { reset } = form;
  useEffect(() => {
    if (q.data) reset(q.data);
  }, [q.data, reset]);
  const save = useOperation(updatePolicySettingsAction, {
    input: (body: PolicySettings) => ({ body }),
    onSuccess: (next) => {
      qc.setQueryData(key, next);
      reset(next);
      toast.success('Exec settings saved');
    },
    onError: (e) => void applyIssues(e, form.setError as never),
  });
  const errors = form.formState.errors;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Exec settings</CardTitle>
        <CardDescription>Whether an exec that needs approval waits for the answer or returns 202 at once, and the limits of every exec.</CardDescription>
      </CardHeader>
      <CardContent>
        {q.error ? (
          <RetryableError error={q.error} onRetry={() => void q.refetch()} />
        ) : !q.data ? (
          <Skeleton className="h-40 w-full" />
        ) : (
          <form noValidate aria-label="Exec settings" onSubmit={form.handleSubmit((v) => save.mutate(v))} className="grid gap-4">
            <fieldset disabled={!allowed || save.isPending} className="grid gap-4 md:grid-cols-2">
              <Field
                label="When an exec needs approval"
                htmlFor="exec-approvalMode"
                error={errors.approvalMode?.message}
                hint="202: the agent polls the request and sends the command again once approved."
              >
                <Select id="exec-approvalMode" {...form.register('approvalMode')}>
                  <option value="wait">Wait for the decision</option>
                  <option value="202">Answer 202 with the request id</option>
                </Select>
              </Field>
              {NUMBERS.map((n) => (
                <Field key={n.name} label={n.label} htmlFor={`exec-${n.name}`} error={errors[n.name]?.message} hint={n.hint}>
                  <Input
                    id={`exec-${n.name}`}
                    type="number"
                    inputMode="numeric"
                    className="w-48"
                    aria-invalid={!!errors[n.name]}
                    {...form.register(n.name, { valueAsNumber: true })}
                  />
                </Field>
              ))}
            </fieldset>
            <ErrorNote error={save.error && !save.error.issues.length ? save.error : null} />
            <div className="flex justify-end">
              <Tip content={why}>
                <Button type="submit" disabled={!allowed || save.isPending || !form.formState.isDirty}>
                  <Save aria-hidden /> {save.isPending ? 'Saving…' : 'Save exec settings'}
                </Button>
              </Tip>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
