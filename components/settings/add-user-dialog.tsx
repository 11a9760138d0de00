'use client';

import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { createUserAction } from '@/app/(console)/settings/actions';
import { ROLES, type Role } from '@/lib/auth/permissions';
import { createUserInput } from '@/lib/auth/schemas';
import { Dialog, DialogFormActions } from '../ui/dialog';
import { Field, Input, Select } from '../ui/input';
import { ErrorNote } from '../ui/misc';
import { useDialogForm } from '../ui/use-dialog-form';
import { callAction } from '../use-operation';
import { ROLE_SUMMARY } from './roles';

type Form = { name: string; email: string; role: Role; password: string };
const EMPTY: Form = { name: '', email: '', role: 'viewer', password: '' };

export function AddUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const qc = useQueryClient();
  const {
    form,
    error,
    mutation: create,
    close,
    onSubmit,
  } = useDialogForm({
    schema: createUserInput,
    empty: EMPTY,
    onOpenChange,
    submit: (body: Form) => callAction(createUserAction, { body }),
    onDone: (u) => {
      toast.success(`Added ${u.email} as ${u.role}`);
      void qc.invalidateQueries({ queryKey: ['users'] });
    },
  });
  const { errors } = form.formState;
  const role = form.watch('role');
  return (
    <Dialog open={open} onOpenChange={close} title="Add user" description="They sign in with this email and the initial password; ask them to keep it private.">
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <ErrorNote error={error} />
        <Field label="Name" htmlFor="new-user-name" error={errors.name?.message}>
          <Input id="new-user-name" autoComplete="off" autoFocus aria-invalid={!!errors.name} {...form.register('name')} />
        </Field>
        <Field label="Email" htmlFor="new-user-email" error={errors.email?.message}>
          <Input id="new-user-email" type="email" autoComplete="off" aria-invalid={!!errors.email} {...form.register('email')} />
        </Field>
        <Field label="Role" htmlFor="new-user-role" error={errors.role?.message} hint={ROLE_SUMMARY[role]}>
          <Select id="new-user-role" {...form.register('role')}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Password" htmlFor="new-user-password" error={errors.password?.message} hint="Initial password, at least 12 characters.">
          <Input id="new-user-password" type="password" autoComplete="new-password" aria-invalid={!!errors.password} {...form.register('password')} />
        </Field>
        <DialogFormActions onCancel={() => close(false)} pending={create.isPending} label="Create user" pendingLabel="Creating…" />
      </form>
    </Dialog>
  );
}
