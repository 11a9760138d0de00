'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { applyIssues } from '../api';

/**
 * A dialog whose form is sent through a mutation: the server's field issues land on the fields,
 * other errors above the form, and closing the dialog resets the form, the error and the mutation.
 */
export function useDialogForm<F extends FieldValues, R>(opts: {
  form: UseFormReturn<F>;
  empty: F;
  onOpenChange: (open: boolean) => void;
  submit: (values: F) => Promise<R>;
  onDone: (result: R, values: F) => void;
}) {
  const { form, empty, onOpenChange } = opts;
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
  return { error, mutation, close, onSubmit };
}
