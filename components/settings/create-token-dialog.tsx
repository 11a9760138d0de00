'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Controller } from 'react-hook-form';
import { z } from 'zod';
import { createTokenAction } from '@/app/(console)/settings/actions';
import { isPermission, PERMISSIONS, type Permission } from '@/lib/auth/permissions';
import { createTokenInput } from '@/lib/auth/schemas';
import { Dialog, DialogFormActions } from '../ui/dialog';
import { Field, Input, Select } from '../ui/input';
import { ErrorNote } from '../ui/misc';
import { useDialogForm } from '../ui/use-dialog-form';
import { callAction } from '../use-operation';
import { useViewer } from '../viewer';
import type { CreatedToken } from './view';

export const EXPIRY_OPTIONS = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'Never' },
] as const;
type Expiry = (typeof EXPIRY_OPTIONS)[number]['value'];

/** The form's schema is the server's createTokenInput, with the expiry as the select's value. */
const formSchema = createTokenInput.pick({ name: true, permissions: true }).extend({ expires: z.enum(['7', '30', '90', '365', 'never']) });
type Form = { name: string; permissions: string[]; expires: Expiry };
const EMPTY: Form = { name: '', permissions: ['instance.read'], expires: '90' };

export type { CreatedToken } from './view';

function SelectAll({ all, value, onChange }: { all: string[]; value: string[]; onChange: (v: string[]) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  const some = value.length > 0 && value.length < all.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = some;
  }, [some]);
  return (
    <label className="flex items-center gap-2 text-sm font-medium">
      <input
        ref={ref}
        type="checkbox"
        className="size-4 accent-primary"
        checked={value.length === all.length}
        onChange={(e) => onChange(e.target.checked ? all : [])}
      />
      Select all
    </label>
  );
}

export function CreateTokenDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  onCreated: (t: CreatedToken) => void;
}) {
  const qc = useQueryClient();
  const viewer = useViewer();
  const mine = (Object.keys(PERMISSIONS) as Permission[]).filter((p) => viewer.permissions.includes(p));
  const {
    form,
    error,
    mutation: create,
    close,
    onSubmit,
  } = useDialogForm({
    schema: formSchema,
    empty: EMPTY,
    onOpenChange,
    submit: (v: Form) =>
      callAction(createTokenAction, { body: { name: v.name, permissions: v.permissions, expiresInDays: v.expires === 'never' ? null : Number(v.expires) } }),
    onDone: (t) => {
      void qc.invalidateQueries({ queryKey: ['tokens'] });
      onCreated(t);
    },
  });
  const { errors } = form.formState;
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Create API token"
      description="For scripts and agent gateways. A token carries only the permissions you tick, and never more than your own role has."
      className="max-w-xl"
    >
      <form onSubmit={onSubmit} className="grid gap-4" noValidate>
        <ErrorNote error={error} />
        <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
          <Field label="Name" htmlFor="token-name" error={errors.name?.message} hint="Where it is used, e.g. “CI deploy”.">
            <Input id="token-name" autoComplete="off" autoFocus aria-invalid={!!errors.name} {...form.register('name')} />
          </Field>
          <Field label="Expires" htmlFor="token-expires">
            <Select id="token-expires" {...form.register('expires')}>
              {EXPIRY_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.value === 'never' ? o.label : `In ${o.label}`}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Controller
          control={form.control}
          name="permissions"
          render={({ field }) => (
            <div
              role="group"
              aria-labelledby="token-permissions-label"
              aria-describedby={errors.permissions ? 'token-permissions-error' : undefined}
              className="grid gap-2"
            >
              <div className="flex items-center justify-between">
                <span id="token-permissions-label" className="text-sm font-medium">
                  Permissions
                </span>
                <SelectAll all={mine} value={field.value} onChange={field.onChange} />
              </div>
              <div className="grid max-h-72 gap-0.5 overflow-y-auto rounded-md border p-1">
                {mine.map((p) => {
                  const checked = field.value.includes(p);
                  return (
                    <label key={p} className="flex cursor-pointer items-start gap-3 rounded px-2 py-1.5 hover:bg-muted/60 has-[:focus-visible]:bg-muted/60">
                      <input
                        type="checkbox"
                        className="mt-0.5 size-4 shrink-0 accent-primary"
                        checked={checked}
                        onChange={(e) =>
                          field.onChange(e.target.checked ? mine.filter((x) => x === p || field.value.includes(x)) : field.value.filter((x) => x !== p))
                        }
                      />
                      <span className="grid gap-0.5">
                        <span className="font-mono text-xs font-medium">{p}</span>
                        <span className="text-xs text-muted-foreground">{isPermission(p) ? PERMISSIONS[p] : ''}</span>
                      </span>
                    </label>
                  );
                })}
              </div>
              {errors.permissions ? (
                <p id="token-permissions-error" role="alert" className="text-xs text-destructive">
                  {errors.permissions.message ?? errors.permissions.root?.message}
                </p>
              ) : null}
            </div>
          )}
        />
        <DialogFormActions onCancel={() => close(false)} pending={create.isPending} label="Create" pendingLabel="Creating…" />
      </form>
    </Dialog>
  );
}
