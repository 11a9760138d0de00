'use client';

import { Plus, RotateCcw } from 'lucide-react';
import { Button } from '../ui/button';
import { cn } from '../ui/cn';
import type { TerminalStatus } from './protocol';

export function statusText(s: TerminalStatus): string {
  switch (s.state) {
    case 'connecting':
      return 'Connecting…';
    case 'connected':
      return 'Connected';
    case 'reconnecting':
      return `Connection lost; reconnecting in ${s.inSeconds} s (attempt ${s.attempt})…`;
    case 'idle-warning':
      return `Idle: the shell closes in ${s.seconds} s unless you type`;
    case 'exited':
      return s.code === null ? 'The shell exited.' : `The shell exited with code ${s.code}.`;
    case 'closed':
      return s.reason;
    case 'error':
      return s.message;
  }
}

const DOT: Record<TerminalStatus['state'], string> = {
  connecting: 'bg-warning',
  connected: 'bg-success',
  reconnecting: 'bg-warning animate-pulse',
  'idle-warning': 'bg-warning',
  exited: 'bg-muted-foreground',
  closed: 'bg-muted-foreground',
  error: 'bg-destructive',
};

/** The line under the terminal: what the connection is doing, and the way back once it ends. */
export function StatusLine({
  status,
  persistent,
  onReconnect,
  onOpenNew,
}: {
  status: TerminalStatus;
  persistent: boolean | null;
  onReconnect: () => void;
  onOpenNew: () => void;
}) {
  const ended = status.state === 'exited' || status.state === 'closed' || status.state === 'error';
  const reattach = (status.state === 'closed' || status.state === 'error') && status.reattach;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm">
      <p data-testid="terminal-status" data-state={status.state} aria-live="polite" className="flex min-w-0 items-center gap-2">
        <span aria-hidden className={cn('size-2 shrink-0 rounded-full', DOT[status.state])} />
        <span className="break-words">{statusText(status)}</span>
      </p>
      {ended ? (
        <div className="flex flex-wrap gap-2">
          {reattach ? (
            <Button size="sm" variant="outline" onClick={onReconnect}>
              <RotateCcw aria-hidden /> Reconnect
            </Button>
          ) : null}
          <Button size="sm" variant={reattach ? 'ghost' : 'outline'} onClick={onOpenNew}>
            <Plus aria-hidden /> Open a new terminal
          </Button>
        </div>
      ) : null}
      {persistent === false ? <span className="text-xs text-muted-foreground sm:ml-auto">This shell ends when the server restarts.</span> : null}
    </div>
  );
}
