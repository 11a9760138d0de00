'use client';

import { toast } from 'sonner';
import { resetPasswordAction } from '@/app/(console)/settings/actions';
import { resetPasswordInput } from '@/lib/auth/schemas';
import { signOutHere } from '../shell/sign-out';
import { Dialog, DialogFormActions } from '../ui/dialog';
import { Field, Input } from '../ui/input';
import { ErrorNote } from '../ui/misc';
import { useDialogForm } from '../ui/use-dialog-form';
import { callAction } from '../use-operation';
import { useViewer } from '../viewer';
import type { UserOut } from './view';

type Form = { password: string };
const EMPTY: Form = { password: '' };

export function ResetPasswordDialog({ user, onOpenChange }: { user: UserOut | null; onOpenChange: (o: boolean) => void }) {
  const viewer = useViewer();
  const {
    form,
    error,
    mutation: reset,
    close,
    onSubmit,
  } = useDialogForm({
    schema: resetPasswordInput,
    empty: EMPTY,
    onOpenChange,
    submit: (v: Form) => callAction(resetPasswordAction, { params: { id: user?.id ?? '' }, body: { password: v.password } }),
    onDone: () => {
      toast.success(`Password set for ${user?.email}; their sessions have ended`);
      // A new password ends every session of that user, this one included when it is your own.
      if (user?.id === viewer.userId) void signOutHere();
    },
  });
  const { errors } = form.formState;
  return (
    <Dialog
      open={!!user}
      onOpenChange={close}
      title="Reset password"
      description={user ? `Set a new password for ${user.email}. They are signed out everywhere and sign in again with it.` : undefined}
    >
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <ErrorNote error={error} />
        <Field
          label="Password"
          htmlFor="reset-password"
          error={errors.password?.message}
          hint="At least 12 characters. Share it with them over a private channel."
        >
          <Input id="reset-password" type="password" autoComplete="new-password" autoFocus aria-invalid={!!errors.password} {...form.register('password')} />
        </Field>
        <DialogFormActions onCancel={() => close(false)} pending={reset.isPending} label="Set password" pendingLabel="Saving…" />
      </form>
    </Dialog>
  );
}
