'use client';

import { SquareTerminal } from 'lucide-react';
import dynamic from 'next/dynamic';
import { useCallback, useEffect, useState } from 'react';
import { principalWords, SharedSandboxNote } from '../sandboxes/instances/shared-note';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { EmptyState, Skeleton, Tip } from '../ui/misc';
import type { GetTicket } from './protocol';
import { savedSession } from './session-store';
import { requestTerminalTicket } from './ticket';

// xterm touches `window` when its module loads, so it is loaded in the browser only, on first open.
const LiveTerminal = dynamic(() => import('./live-terminal').then((m) => m.LiveTerminal), {
  ssr: false,
  loading: () => <Skeleton className="h-[360px] w-full sm:h-[420px]" />,
});

export interface TerminalPanelProps {
  instanceId: string;
  running: boolean;
  canOpen: boolean;
  /** The role named when `canOpen` is false. */
  requiredRole?: string;
  /** A control that starts a sandbox, shown in the empty state when none runs. */
  startAction?: React.ReactNode;
  /** Where tickets come from; the REST operation by default. */
  getTicket?: GetTicket;
  /** Whose sandbox this is when it is not the viewer's own: warned about, and attached to only on purpose. */
  sharedWith?: string | null;
}

/**
 * A shell into a running sandbox, opened only when the person asks (or re-attached after a reload
 * of this tab, while the shell still runs).
 */
export function TerminalPanel({ instanceId, running, canOpen, requiredRole = 'operator', startAction, getTicket, sharedWith = null }: TerminalPanelProps) {
  const [opened, setOpened] = useState(false);
  useEffect(() => {
    if (running && canOpen && savedSession(instanceId)) setOpened(true);
  }, [instanceId, running, canOpen]);
  const shared = sharedWith !== null;
  const fallback = useCallback((sessionId?: string) => requestTerminalTicket(instanceId, sessionId, shared), [instanceId, shared]);
  const needsRole = `Opening a terminal needs the ${requiredRole} role`;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Terminal</CardTitle>
        <CardDescription>An interactive shell inside the sandbox. It survives a dropped connection or a reload of this tab.</CardDescription>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-3">
        {running && sharedWith ? <SharedSandboxNote principal={sharedWith} /> : null}
        {!running ? (
          <EmptyState icon={<SquareTerminal />} title="No sandbox is running — start one to open a terminal" action={startAction} />
        ) : !canOpen ? (
          <div aria-disabled className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-10 text-center text-muted-foreground">
            <SquareTerminal aria-hidden className="size-8" />
            <p className="text-sm">{needsRole}.</p>
            <Tip content={`${needsRole}.`}>
              <Button disabled>Open terminal</Button>
            </Tip>
          </div>
        ) : opened ? (
          <LiveTerminal instanceId={instanceId} getTicket={getTicket ?? fallback} />
        ) : (
          <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-10 text-center">
            <SquareTerminal aria-hidden className="size-8 text-muted-foreground" />
            <p className="max-w-md text-sm text-muted-foreground">Opens a shell as the sandbox's user. Input counts as activity; an idle shell is closed.</p>
            <Button onClick={() => setOpened(true)}>
              <SquareTerminal aria-hidden /> {sharedWith ? `Attach to ${principalWords(sharedWith)}'s sandbox` : 'Open terminal'}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}
