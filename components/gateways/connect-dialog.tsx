'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { toast } from 'sonner';
import { createGatewayAction } from '@/app/(console)/gateways/actions';
import { createGatewayInput } from '@/lib/gateways/schema';
import { Dialog, DialogFormActions } from '../ui/dialog';
import { CheckField, Field, Input } from '../ui/input';
import { ErrorNote } from '../ui/misc';
import { useDialogForm } from '../ui/use-dialog-form';
import { callAction } from '../use-operation';
import { EMPTY_LOCATION, LocationFields, type LocationForm } from './location-fields';
import { invalidateGateways } from './queries';
import type { LocationType } from './view';

type Form = { name: string; kind: 'openclaw'; location: LocationForm; autoSync: boolean };
const EMPTY: Form = { name: '', kind: 'openclaw', location: EMPTY_LOCATION.local, autoSync: true };

/** Connect an OpenClaw gateway: a name, where it lives (local folder, container, remote URL) and whether it syncs on its own. */
export function ConnectDialog({ open, onOpenChange, roots }: { open: boolean; onOpenChange: (o: boolean) => void; roots: string[] }) {
  const qc = useQueryClient();
  const router = useRouter();
  const { form, error, mutation, close, onSubmit } = useDialogForm({
    schema: createGatewayInput,
    empty: EMPTY,
    onOpenChange,
    submit: (body: Form) => callAction(createGatewayAction, { body }),
    onDone: (g) => {
      toast.success(`Connected ${g.name}`, { description: 'Test the connection, then adopt its agents.' });
      invalidateGateways(qc);
      router.push(`/gateways/${encodeURIComponent(g.id)}?tab=adopt`);
    },
  });
  const { errors } = form.formState;
  const type = form.watch('location.type') as LocationType;
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Connect gateway"
      description="Skilldock reads the gateway's config now and writes only the keys it owns on a sync: agents' skill lists and its skill entries."
      className="max-h-[90dvh] max-w-xl overflow-y-auto"
    >
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <ErrorNote error={error} />
        <Field label="Name" htmlFor="gw-name" error={errors.name?.message}>
          <Input id="gw-name" autoComplete="off" autoFocus aria-invalid={!!errors.name} {...form.register('name')} />
        </Field>
        <LocationFields
          idPrefix="gw"
          type={type}
          onType={(t) => form.setValue('location', EMPTY_LOCATION[t], { shouldDirty: true })}
          register={form.register as never}
          errors={errors}
          roots={roots}
        />
        <CheckField
          id="gw-autosync"
          label="Sync on every change"
          hint="An allowlist or skill change in Skilldock is written into the gateway at once. Off: only Sync now."
          {...form.register('autoSync')}
        />
        <DialogFormActions onCancel={() => close(false)} pending={mutation.isPending} label="Connect gateway" pendingLabel="Connecting…" />
      </form>
    </Dialog>
  );
}
