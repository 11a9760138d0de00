'use client';

import { ShieldAlert, Users } from 'lucide-react';
import { useId, useState } from 'react';
import { ackInput } from '@/lib/skills/service/schemas';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { Field, Input } from '../../ui/input';
import { Textarea } from '../../ui/textarea';
import { FindingsTable } from '../findings-table';
import type { ScanFinding } from '../view';

const reasonSchema = ackInput.shape.reason;

/** A reason typed against the server's own rule (at least 5 characters), checked as you type once touched. */
export function useReason() {
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const check = reasonSchema.safeParse(reason);
  const error = touched && !check.success ? check.error.issues[0]?.message : undefined;
  return {
    reason,
    setReason: (v: string) => {
      setReason(v);
      setTouched(true);
    },
    error,
    valid: check.success,
    touch: () => setTouched(true),
  };
}

/** The scanner blocked the import: its findings, and for admins a reasoned "Acknowledge and import". */
export function AcknowledgeRetry({
  error,
  findings,
  allowed,
  busy,
  onRetry,
}: {
  error: string | null;
  findings: ScanFinding[];
  allowed: boolean;
  busy: boolean;
  onRetry: (reason: string) => void;
}) {
  const id = useId();
  const r = useReason();
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-3 rounded-md border border-destructive/40 bg-destructive/5 p-3" data-testid="import-blocked">
      <p className="flex items-start gap-2 text-sm">
        <ShieldAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive" />
        <span>{error ?? 'The scanner found critical issues, so nothing was installed.'}</span>
      </p>
      {findings.length ? (
        <div className="max-h-64 overflow-y-auto rounded border bg-card">
          <FindingsTable findings={findings} compact />
        </div>
      ) : null}
      {allowed ? (
        <form
          className="grid gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            r.touch();
            if (r.valid) onRetry(r.reason.trim());
          }}
        >
          <Field
            label="Why is it safe to import anyway?"
            htmlFor={`${id}-reason`}
            error={r.error}
            hint="Recorded in the audit log with your name; the skill shows as Acknowledged."
          >
            <Textarea
              id={`${id}-reason`}
              value={r.reason}
              onChange={(e) => r.setReason(e.target.value)}
              rows={2}
              aria-invalid={!!r.error}
              placeholder="Reviewed the flagged lines: the curl call downloads our own release."
            />
          </Field>
          <div className="flex justify-end">
            <Button type="submit" variant="destructive" disabled={busy || !r.valid} data-testid="acknowledge-import">
              <ShieldAlert aria-hidden /> {busy ? 'Starting…' : 'Acknowledge and import'}
            </Button>
          </div>
        </form>
      ) : (
        <p className="text-xs text-muted-foreground">Only an admin can acknowledge critical findings and import it anyway.</p>
      )}
    </div>
  );
}

/** ClawHub has several skills of this slug: pick the publisher (from the registry's list, or typed) and retry. */
export function OwnerRetry({ error, owners, busy, onRetry }: { error: string | null; owners: string[]; busy: boolean; onRetry: (owner: string) => void }) {
  const id = useId();
  const [owner, setOwner] = useState(owners[0] ?? '');
  const valid = /^@?[A-Za-z0-9][A-Za-z0-9_-]{0,38}$/.test(owner.trim());
  return (
    <form
      className="grid gap-3 rounded-md border border-warning/50 bg-warning/10 p-3"
      data-testid="import-ambiguous"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) onRetry(owner.trim().replace(/^@/, ''));
      }}
    >
      <p className="flex items-start gap-2 text-sm">
        <Users aria-hidden className="mt-0.5 size-4 shrink-0" />
        <span>{error ?? 'Several publishers have a skill of this name.'} Choose whose to import.</span>
      </p>
      {owners.length ? (
        <div role="radiogroup" aria-label="Publisher" className="flex flex-wrap gap-2">
          {owners.map((o) => (
            <button
              key={o}
              type="button"
              role="radio"
              aria-checked={owner === o}
              onClick={() => setOwner(o)}
              className={cn(
                'rounded-md border px-3 py-1.5 font-mono text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring',
                owner === o && 'border-primary bg-primary/10 text-primary',
              )}
            >
              @{o}
            </button>
          ))}
        </div>
      ) : (
        <Field
          label="Publisher"
          htmlFor={`${id}-owner`}
          error={owner && !valid ? 'A ClawHub handle: letters, digits, _ and -' : undefined}
          hint="The owner handle shown on ClawHub, e.g. @steipete."
        >
          <Input id={`${id}-owner`} value={owner} onChange={(e) => setOwner(e.target.value)} className="font-mono" autoComplete="off" spellCheck={false} />
        </Field>
      )}
      <div className="flex justify-end">
        <Button type="submit" disabled={busy || !valid} data-testid="owner-retry">
          {busy ? 'Starting…' : `Import from @${owner.trim().replace(/^@/, '') || '…'}`}
        </Button>
      </div>
    </form>
  );
}
