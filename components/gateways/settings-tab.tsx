'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { deleteGatewayAction, updateGatewayAction } from '@/app/(console)/gateways/actions';
import { createGatewayInput } from '@/lib/gateways/schema';
import { applyIssues } from '../api';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Confirm } from '../ui/dialog';
import { CheckField, Field, Input } from '../ui/input';
import { ErrorNote, Tip } from '../ui/misc';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { EMPTY_LOCATION, LocationFields, type LocationForm } from './location-fields';
import { invalidateGateways } from './queries';
import { type Gateway, type LocationType, locationType, plural } from './view';

const schema = createGatewayInput.pick({ name: true, location: true, autoSync: true });
type Form = { name: string; location: LocationForm; autoSync: boolean };

const formOf = (g: Gateway): Form => ({ name: g.name, location: g.location as unknown as LocationForm, autoSync: g.autoSync });

/** Settings: name, location and auto sync (sent with the revision read), and disconnecting the gateway. */
export function SettingsTab({ gateway, roots }: { gateway: Gateway; roots: string[] }) {
  const can = useCan('gateways.write');
  const qc = useQueryClient();
  const router = useRouter();
  const [deleting, setDeleting] = useState(false);
  const form = useForm<Form>({ resolver: zodResolver(schema as never) as never, mode: 'onChange', defaultValues: formOf(gateway) });
  const { errors, dirtyFields, isDirty } = form.formState;
  const save = useOperation(updateGatewayAction, {
    input: (v: Form) => ({
      params: { id: gateway.id },
      body: {
        revision: gateway.revision,
        ...(dirtyFields.name ? { name: v.name } : {}),
        ...(dirtyFields.location ? { location: v.location } : {}),
        ...(dirtyFields.autoSync ? { autoSync: v.autoSync } : {}),
      },
    }),
    onSuccess: (g) => {
      toast.success(`Saved ${g.name}`);
      qc.setQueryData(['gateways', 'one', g.id], g);
      invalidateGateways(qc);
      form.reset(formOf(g));
    },
    onError: (e) => applyIssues(e, form.setError as never),
  });
  const remove = useOperation(deleteGatewayAction, {
    input: () => ({ params: { id: gateway.id } }),
    onSuccess: () => {
      toast.success(`Disconnected ${gateway.name}`);
      invalidateGateways(qc);
      router.push('/gateways');
    },
    onError: (e) => toast.error('Could not disconnect the gateway', { description: e.message }),
  });
  const type = form.watch('location.type') as LocationType;
  const remote = locationType(gateway.location) === 'remote' && gateway.location.token === '***';
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Settings</CardTitle>
          <CardDescription>A new location is checked before it is saved; its status and drift are read again on the next test.</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={form.handleSubmit((v) => save.mutate(v))} className="grid gap-4" noValidate>
            <fieldset disabled={!can.allowed} className="grid gap-4">
              {save.error && !save.error.issues.length ? <ErrorNote error={save.error} /> : null}
              <Field label="Name" htmlFor="gws-name" error={errors.name?.message}>
                <Input id="gws-name" autoComplete="off" aria-invalid={!!errors.name} {...form.register('name')} />
              </Field>
              <LocationFields
                idPrefix="gws"
                type={type}
                onType={(t) => form.setValue('location', EMPTY_LOCATION[t], { shouldDirty: true, shouldValidate: true })}
                register={form.register as never}
                errors={errors}
                roots={roots}
                tokenKept={remote && type === 'remote'}
              />
              <CheckField id="gws-autosync" label="Sync on every change" hint="Off: the gateway is written only by Sync now." {...form.register('autoSync')} />
            </fieldset>
            <div className="flex flex-wrap justify-end gap-2">
              <Button type="button" variant="outline" disabled={!isDirty} onClick={() => form.reset(formOf(gateway))}>
                Discard
              </Button>
              <Tip content={can.why}>
                <Button type="submit" disabled={!can.allowed || !isDirty || save.isPending} data-testid="gateway-save">
                  {save.isPending ? 'Saving…' : 'Save'}
                </Button>
              </Tip>
            </div>
          </form>
        </CardContent>
      </Card>
      <Card className="border-destructive/40">
        <CardHeader>
          <CardTitle>Disconnect</CardTitle>
          <CardDescription>Skilldock forgets this gateway; the gateway keeps running as it is.</CardDescription>
        </CardHeader>
        <CardContent>
          <Tip content={can.why}>
            <Button variant="destructive" disabled={!can.allowed} onClick={() => setDeleting(true)} data-testid="gateway-delete">
              <Trash2 aria-hidden /> Disconnect gateway
            </Button>
          </Tip>
        </CardContent>
      </Card>
      {deleting ? (
        <Confirm
          open
          onOpenChange={(o) => !o && setDeleting(false)}
          title={`Disconnect ${gateway.name}?`}
          description={
            <>
              Lost: where it lives{remote ? ' and its stored token' : ''}, the link of {plural(gateway.agentIds.length, 'agent')} (the Skilldock agents stay),
              its last status, drift and sync record. Nothing in the gateway is changed: its config, agents and skill folders stay as they are, and changes in
              Skilldock are no longer written into it.
            </>
          }
          confirmLabel="Disconnect gateway"
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      ) : null}
    </div>
  );
}
