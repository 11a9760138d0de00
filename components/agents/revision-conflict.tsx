'use client';

import { RefreshCw } from 'lucide-react';
import { Button } from '../ui/button';
import { ErrorNote } from '../ui/misc';
import type { AgentView } from './view';

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

/**
 * What a failed save of an agent shows: the conflict banner when someone else saved first (reload
 * the agent, start the draft again from it, clear the error), else the error itself.
 */
export function AgentSaveError({
  error,
  reload,
  restart,
  reset,
}: {
  error: { code?: string } | null | undefined;
  reload: () => Promise<AgentView | undefined>;
  restart: (agent: AgentView) => void;
  reset: () => void;
}) {
  if (error?.code !== 'conflict') return <ErrorNote error={error} />;
  return (
    <RevisionConflict
      onReload={() =>
        void reload().then((a) => {
          if (a) restart(a);
          reset();
        })
      }
    />
  );
}
