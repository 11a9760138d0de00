'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { type DefaultValues, type FieldValues, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { applyIssues } from '../api';

/**
 * A dialog whose form is sent through a mutation: validated as you type with `schema`, the server's field issues
 * land on the fields, other errors above the form, and closing the dialog resets the form, the error and the mutation.
 */
export function useDialogForm<F extends FieldValues, R>(opts: {
  schema: z.ZodType;
  empty: F;
  onOpenChange: (open: boolean) => void;
  submit: (values: F) => Promise<R>;
  onDone: (result: R, values: F) => void;
}) {
  const { empty, onOpenChange } = opts;
  const form = useForm<F>({ resolver: zodResolver(opts.schema as never) as never, mode: 'onChange', defaultValues: empty as DefaultValues<F> });
  const [error, setError] = useState<unknown>(null);
  const mutation = useMutation({
    mutationFn: opts.submit,
    onSuccess: (result, values) => {
      close(false);
      opts.onDone(result, values);
    },
    onError: (e) => {
      if (!applyIssues(e, form.setError as never)) setError(e);
    },
  });
  function close(open: boolean) {
    if (!open) {
      form.reset(empty);
      setError(null);
      mutation.reset();
    }
    onOpenChange(open);
  }
  const onSubmit = form.handleSubmit((values) => {
    setError(null);
    mutation.mutate(values);
  });
  return { form, error, mutation, close, onSubmit };
}
