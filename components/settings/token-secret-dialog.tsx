'use client';

import { Check, Copy, TriangleAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Button } from '../ui/button';
import { copyText } from '../ui/copy-button';
import { Dialog } from '../ui/dialog';
import { Input, Label } from '../ui/input';
import type { CreatedToken } from './create-token-dialog';

function CopySecret({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(t);
  }, [copied]);
  const copy = () =>
    copyText(text).then(
      () => {
        setCopied(true);
        toast.success('Token copied to the clipboard');
      },
      (e: Error) => toast.error('Could not copy', { description: `${e.message} Select the token and copy it by hand.` }),
    );
  return (
    <Button type="button" variant="outline" onClick={() => void copy()}>
      {copied ? <Check className="text-success" /> : <Copy />}
      Copy
    </Button>
  );
}

/** Shows a new token's secret, the one time it exists outside the creator's clipboard. */
export function TokenSecretDialog({ created, onClose }: { created: CreatedToken | null; onClose: () => void }) {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const curl = created ? `curl -H "Authorization: Bearer ${created.token}" ${origin}/api/v1/me` : '';
  return (
    <Dialog
      open={!!created}
      onOpenChange={(o) => !o && onClose()}
      title={created ? `Token “${created.record.name}” created` : 'Token created'}
      className="max-w-xl"
    >
      {created ? (
        <div className="grid gap-4">
          <div role="note" className="flex gap-2 rounded-md border border-warning/50 bg-warning/15 px-3 py-2 text-sm">
            <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
            <p>Copy the token now. It won&apos;t be shown again: Skilldock keeps only a hash of it. If it is lost, revoke it and create another.</p>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="new-token-secret">API token</Label>
            <div className="flex gap-2">
              <Input
                id="new-token-secret"
                readOnly
                value={created.token}
                className="font-mono text-xs"
                onFocus={(e) => e.currentTarget.select()}
                data-testid="token-secret"
              />
              <CopySecret text={created.token} />
            </div>
          </div>
          <div className="grid gap-1.5">
            <p className="text-sm font-medium" id="token-curl-label">
              Try it
            </p>
            <pre
              role="region"
              aria-labelledby="token-curl-label"
              tabIndex={0}
              className="overflow-x-auto rounded-md border bg-muted px-3 py-2 font-mono text-xs whitespace-pre-wrap break-all select-all"
            >
              {curl}
            </pre>
            <p className="text-xs text-muted-foreground">Send it as a Bearer token on every request; /api/v1/me answers with the permissions it carries.</p>
          </div>
          <div className="flex justify-end">
            <Button onClick={onClose}>Done, I saved it</Button>
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
