'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter, useSearchParams } from 'next/navigation';
import { signIn } from 'next-auth/react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { loginInput } from '@/lib/auth/schemas';
import { Button } from '../ui/button';
import { Field, Input } from '../ui/input';
import { ErrorNote } from '../ui/misc';

type Form = { email: string; password: string };

export function LoginForm() {
  const router = useRouter();
  const params = useSearchParams();
  const [error, setError] = useState<string | null>(params.get('error') && params.get('error') !== 'CredentialsSignin' ? params.get('error') : null);
  const form = useForm<Form>({ resolver: zodResolver(loginInput) as never, mode: 'onTouched', defaultValues: { email: '', password: '' } });
  const onSubmit = form.handleSubmit(async (v) => {
    setError(null);
    const res = await signIn('credentials', { email: v.email, password: v.password, redirect: false });
    if (!res || res.error) return setError(res?.error && res.error !== 'CredentialsSignin' ? res.error : 'Wrong email or password.');
    const to = params.get('callbackUrl');
    router.replace(to?.startsWith('/') && !to.startsWith('//') ? to : '/jobs');
    router.refresh();
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      <ErrorNote error={error} />
      <Field label="Email" htmlFor="email" error={errors.email?.message}>
        <Input id="email" type="email" autoComplete="username" autoFocus aria-invalid={!!errors.email} {...form.register('email')} />
      </Field>
      <Field label="Password" htmlFor="password" error={errors.password?.message}>
        <Input id="password" type="password" autoComplete="current-password" aria-invalid={!!errors.password} {...form.register('password')} />
      </Field>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Signing in…' : 'Sign in'}
      </Button>
    </form>
  );
}
