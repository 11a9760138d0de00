'use client';

import { RefreshCw } from 'lucide-react';
import { Button } from '../ui/button';

/** The banner of a save refused because the agent changed since the draft's revision: reload, then edit again. */
export function RevisionConflict({ onReload }: { onReload: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
      data-testid="agent-conflict"
    >
      <span>This agent was changed by someone else since you opened it — reload to see their change, then edit again. Nothing was saved.</span>
      <Button size="sm" variant="outline" onClick={onReload}>
        <RefreshCw aria-hidden /> Reload
      </Button>
    </div>
  );
}
