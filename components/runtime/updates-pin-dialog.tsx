'use client';

import { Lock } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { Input, Label } from '../ui/input';
import { ErrorNote } from '../ui/misc';

const MAX_REASON = 200;

/** Pin (hold) a package, with an optional reason shown next to it in the updates table. */
export function PinDialog({
  target,
  onOpenChange,
  onPin,
  busy,
  error,
}: {
  target: { spec: string; name: string } | null;
  onOpenChange: (o: boolean) => void;
  onPin: (reason: string) => void;
  busy: boolean;
  error: unknown;
}) {
  const [reason, setReason] = useState('');
  const id = useId();
  const tooLong = reason.trim().length > MAX_REASON;
  return (
    <Dialog
      open={!!target}
      onOpenChange={(o) => {
        if (!o) setReason('');
        onOpenChange(o);
      }}
      title={target ? `Pin ${target.name}?` : 'Pin'}
      description="A pinned package is still checked for updates, but Update All leaves it alone until you unpin it."
    >
      <form
        className="grid gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!tooLong && !busy) onPin(reason.trim());
        }}
      >
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-reason`}>Reason (optional)</Label>
          <Input
            id={`${id}-reason`}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder="e.g. 2.x breaks the report skill"
            aria-invalid={tooLong || undefined}
            autoFocus
          />
          {tooLong ? (
            <p role="alert" className="text-xs text-destructive">
              At most {MAX_REASON} characters.
            </p>
          ) : null}
        </div>
        {error ? <ErrorNote error={error} /> : null}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy || tooLong}>
            <Lock aria-hidden /> {busy ? 'Pinning…' : 'Pin'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
