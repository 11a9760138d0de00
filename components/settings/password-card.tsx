'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { signIn } from 'next-auth/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { changeOwnPasswordAction } from '@/app/(console)/settings/actions';
import { changeOwnPasswordInput } from '@/lib/auth/schemas';
import { applyIssues } from '../api';
import { SettingsCardHeader } from '../forms/settings-form-card';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { Field, Input } from '../ui/input';
import { ErrorNote } from '../ui/misc';
import { callAction } from '../use-operation';
import { useViewer } from '../viewer';

type Form = { currentPassword: string; newPassword: string };
const EMPTY: Form = { currentPassword: '', newPassword: '' };

/** Any signed-in user changes their own password; every session ends, so this one signs in again at once. */
export function PasswordCard() {
  const viewer = useViewer();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<Form>({ resolver: zodResolver(changeOwnPasswordInput) as never, mode: 'onTouched', defaultValues: EMPTY });
  const onSubmit = form.handleSubmit(async (v) => {
    setError(null);
    try {
      await callAction(changeOwnPasswordAction, { body: v });
    } catch (e) {
      if (!applyIssues(e, form.setError as never)) setError(e);
      return;
    }
    form.reset(EMPTY);
    const res = await signIn('credentials', { email: viewer.email, password: v.newPassword, redirect: false });
    if (res?.ok) toast.success('Password changed; your other sessions have ended');
    else window.location.assign('/login');
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <Card>
      <SettingsCardHeader
        title="Your password"
        description={`Change the password of ${viewer.email}. Every other session of yours ends; your API tokens keep working (revoke them below if they may have leaked).`}
      />
      <CardContent>
        <form onSubmit={onSubmit} className="grid max-w-md gap-4" noValidate aria-label="Change your password">
          <ErrorNote error={error} />
          <Field label="Current password" htmlFor="current-password" error={errors.currentPassword?.message}>
            <Input
              id="current-password"
              type="password"
              autoComplete="current-password"
              aria-invalid={!!errors.currentPassword}
              {...form.register('currentPassword')}
            />
          </Field>
          <Field label="New password" htmlFor="new-password" error={errors.newPassword?.message} hint="At least 12 characters.">
            <Input id="new-password" type="password" autoComplete="new-password" aria-invalid={!!errors.newPassword} {...form.register('newPassword')} />
          </Field>
          <div>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Changing…' : 'Change password'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
