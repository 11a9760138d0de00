'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { signIn } from 'next-auth/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { setupAction } from '@/app/(auth)/setup/actions';
import { setupForm } from '@/lib/auth/schemas';
import { applyIssues } from '../api';
import { TextField } from '../forms/fields';
import { Button } from '../ui/button';
import { Field, Input } from '../ui/input';
import { ErrorNote } from '../ui/misc';
import { callAction } from '../use-operation';

type Form = { email: string; name: string; password: string; token: string };

/** `token`: the one-time setup token from the URL the server logged, prefilled; without it the field must be filled by hand. */
export function SetupForm({ token = '' }: { token?: string }) {
  const router = useRouter();
  const [error, setError] = useState<unknown>(null);
  const form = useForm<Form>({
    resolver: zodResolver(setupForm) as never,
    mode: 'onTouched',
    defaultValues: { email: '', name: '', password: '', token },
  });
  const onSubmit = form.handleSubmit(async (v) => {
    setError(null);
    try {
      await callAction(setupAction, { body: v });
    } catch (e) {
      if (!applyIssues(e, form.setError as never)) setError(e);
      return;
    }
    const res = await signIn('credentials', { email: v.email, password: v.password, redirect: false });
    router.replace(res?.ok ? '/overview' : '/login');
    router.refresh();
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <ErrorNote error={error} />
      <TextField
        label="Setup token"
        id="token"
        error={errors.token?.message}
        hint="Printed in the server log at start (the setup URL), and kept in the data dir file setup-token."
        required
        autoFocus={!token}
        {...form.register('token')}
        // In the server-rendered HTML too, so the field is filled before the page hydrates.
        defaultValue={token}
      />
      <Field label="Your name" htmlFor="name" error={errors.name?.message}>
        <Input id="name" autoComplete="name" autoFocus={!!token} aria-invalid={!!errors.name} {...form.register('name')} />
      </Field>
      <Field label="Email" htmlFor="email" error={errors.email?.message}>
        <Input id="email" type="email" autoComplete="username" aria-invalid={!!errors.email} {...form.register('email')} />
      </Field>
      <Field label="Password" htmlFor="password" error={errors.password?.message} hint="At least 12 characters.">
        <Input id="password" type="password" autoComplete="new-password" aria-invalid={!!errors.password} {...form.register('password')} />
      </Field>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Creating…' : 'Create owner account'}
      </Button>
    </form>
  );
}
