'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { toast } from 'sonner';
import { createAgentAction } from '@/app/(console)/agents/actions';
import { createAgentInput } from '@/lib/agents/schema';
import { useSandboxConfigs } from '../sandboxes/queries';
import { Dialog, DialogFormActions } from '../ui/dialog';
import { Field, Input, Select } from '../ui/input';
import { ErrorNote } from '../ui/misc';
import { Textarea } from '../ui/textarea';
import { useDialogForm } from '../ui/use-dialog-form';
import { callAction } from '../use-operation';
import { invalidateAgents } from './queries';

type Form = { id: string; name: string; description: string; sandboxConfigId: string | null; skills: string[] | null };
const EMPTY: Form = { id: '', name: '', description: '', sandboxConfigId: null, skills: null };

/** A new agent: id, name, description, sandbox config and whether it starts inheriting the defaults or with no skills. */
export function CreateAgentDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const qc = useQueryClient();
  const router = useRouter();
  const configs = useSandboxConfigs();
  const { form, error, mutation, close, onSubmit } = useDialogForm({
    schema: createAgentInput,
    empty: EMPTY,
    onOpenChange,
    submit: (body: Form) => callAction(createAgentAction, { body }),
    onDone: (a) => {
      toast.success(`Created agent ${a.id}`, { description: a.inheritsDefaults ? 'It inherits the defaults.' : 'It has no skills yet.' });
      invalidateAgents(qc);
      router.push(`/agents/${encodeURIComponent(a.id)}`);
    },
  });
  const { errors } = form.formState;
  const skills = form.watch('skills');
  return (
    <Dialog open={open} onOpenChange={close} title="New agent" description="Gateways ask for an agent's skills by its id; the id cannot change later.">
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <ErrorNote error={error} />
        <Field label="Id" htmlFor="agent-id" error={errors.id?.message} hint="Lower-case letters, digits, - and _, e.g. support-bot.">
          <Input id="agent-id" autoComplete="off" autoFocus aria-invalid={!!errors.id} className="font-mono" {...form.register('id')} />
        </Field>
        <Field label="Name" htmlFor="agent-name" error={errors.name?.message}>
          <Input id="agent-name" autoComplete="off" aria-invalid={!!errors.name} {...form.register('name')} />
        </Field>
        <Field label="Description" htmlFor="agent-description" error={errors.description?.message}>
          <Textarea id="agent-description" rows={2} {...form.register('description')} />
        </Field>
        <Field
          label="Sandbox config"
          htmlFor="agent-config"
          error={errors.sandboxConfigId?.message}
          hint="Where its skills run: the host, or a sandbox config's image (only skills installed there are served)."
        >
          <Select id="agent-config" {...form.register('sandboxConfigId', { setValueAs: (v) => (v ? v : null) })}>
            <option value="">None — the host</option>
            {(configs.data?.items ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Skills" htmlFor="agent-scope" hint="Give it its own list later in the editor or the matrix.">
          <Select
            id="agent-scope"
            value={skills === null ? 'inherit' : 'none'}
            onChange={(e) => form.setValue('skills', e.target.value === 'none' ? [] : null, { shouldValidate: true })}
          >
            <option value="inherit">Inherit the defaults</option>
            <option value="none">No skills</option>
          </Select>
        </Field>
        <DialogFormActions onCancel={() => close(false)} pending={mutation.isPending} label="Create agent" pendingLabel="Creating…" />
      </form>
    </Dialog>
  );
}
