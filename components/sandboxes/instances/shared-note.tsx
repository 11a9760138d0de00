'use client';

import { TriangleAlert } from 'lucide-react';
import { describePrincipal, PRINCIPAL_LABEL, principalOf } from '@/lib/sandbox/instances/principal';

/** Who a principal label names, in words ("unknown" for a sandbox without an owner). */
export const principalWords = (principal: string): string => describePrincipal(principalOf({ [PRINCIPAL_LABEL]: principal }));

/** Whose the sandbox is when it is not the viewer's own; null when it is theirs. */
export function sharedWith(principal: string | null, userId: string): string | null {
  return principal === `user:${userId}` ? null : (principal ?? 'unknown');
}

/** The warning shown wherever a person is about to act inside someone else's sandbox. */
export function SharedSandboxNote({ principal }: { principal: string }) {
  return (
    <div role="alert" data-slot="shared-warning" className="flex gap-2 rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm">
      <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-600 dark:text-amber-400" />
      <p>
        <strong>Shared with {principalWords(principal)}.</strong> This sandbox is not yours: its files and programs are untrusted (what runs here can see what
        you type), and your personal variables are not given to it. Start a sandbox of your own for work of your own.
      </p>
    </div>
  );
}
