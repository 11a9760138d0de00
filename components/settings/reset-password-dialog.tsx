'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { signOut } from 'next-auth/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { resetPasswordInput } from '@/lib/auth/schemas';
import { api, applyIssues } from '../api';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { Field, Input } from '../ui/input';
import { ErrorNote } from '../ui/misc';
import { useViewer } from '../viewer';
import type { UserOut } from './types';

type Form = { password: string };

export function ResetPasswordDialog({ user, onOpenChange }: { user: UserOut | null; onOpenChange: (o: boolean) => void }) {
  const viewer = useViewer();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<Form>({ resolver: zodResolver(resetPasswordInput) as never, mode: 'onChange', defaultValues: { password: '' } });
  const reset = useMutation({
    mutationFn: (v: Form & { id: string }) => api(`/api/v1/users/${v.id}/password`, { method: 'POST', body: { password: v.password } }),
    onSuccess: () => {
      toast.success(`Password set for ${user?.email}; their sessions have ended`);
      const self = user?.id === viewer.userId;
      close(false);
      // A new password ends every session of that user, this one included when it is your own.
      if (self) void signOut({ callbackUrl: '/login' });
    },
    onError: (e) => {
      if (!applyIssues(e, form.setError as never)) setError(e);
    },
  });
  const close = (o: boolean) => {
    if (!o) {
      form.reset({ password: '' });
      setError(null);
      reset.reset();
    }
    onOpenChange(o);
  };
  const onSubmit = form.handleSubmit((v) => {
    if (!user) return;
    setError(null);
    reset.mutate({ ...v, id: user.id });
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
        <Field label="Password" htmlFor="reset-password" error={errors.password?.message} hint="At least 12 characters. Share it with them over a private channel.">
          <Input id="reset-password" type="password" autoComplete="new-password" autoFocus aria-invalid={!!errors.password} {...form.register('password')} />
        </Field>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={() => close(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={reset.isPending}>
            {reset.isPending ? 'Saving…' : 'Set password'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
