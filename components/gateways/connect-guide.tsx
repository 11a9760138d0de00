'use client';

import { Cable } from 'lucide-react';
import { useEffect, useState } from 'react';
import { CopyButton } from '../ui/copy-button';
import { EmptyState } from '../ui/misc';

/** This console's address as the browser sees it (after mount: the server render has no window). */
export function useOrigin(): string {
  const [origin, setOrigin] = useState('<this console>');
  useEffect(() => setOrigin(window.location.origin), []);
  return origin;
}

const code = 'rounded bg-muted px-1 font-mono text-foreground';

/** A command on its own line with a copy button. */
export function CommandLine({ command, label, testId }: { command: string; label: string; testId?: string }) {
  return (
    <div className="flex items-start gap-1 rounded-md border bg-muted/40 p-2">
      <code className="min-w-0 flex-1 break-all font-mono text-xs text-foreground" data-testid={testId}>
        {command}
      </code>
      <CopyButton value={command} label={label} className="size-7" />
    </div>
  );
}

/** The empty list: the two ways an agent gateway gets its skills from Skilldock. */
export function ConnectGuide({ roots, action }: { roots: string[]; action: React.ReactNode }) {
  const origin = useOrigin();
  return (
    <EmptyState icon={<Cable />} title="No gateways connected" action={action}>
      <div className="grid gap-4 text-left" data-testid="gateways-empty">
        <div className="grid gap-1.5">
          <p className="font-medium text-foreground">Connect an OpenClaw gateway</p>
          <p>Skilldock reads its config, adopts its agents and writes their allowlists and skills back on every change. It can live:</p>
          <ul className="ml-4 list-disc space-y-1">
            <li>
              in a <b>local state folder</b> on this server (its <code className={code}>~/.openclaw</code>), inside one of the folders set in{' '}
              <code className={code}>SKILLDOCK_GATEWAY_ROOTS</code>:{' '}
              {roots.length ? (
                roots.map((r) => (
                  <code key={r} className={`${code} mr-1`} data-testid="gateway-root">
                    {r}
                  </code>
                ))
              ) : (
                <span className="text-destructive">none set — set it and restart to connect a local gateway</span>
              )}
            </li>
            <li>
              in a <b>Docker container</b>: its name and the state folder inside it;
            </li>
            <li>
              on <b>another machine</b>: the running gateway's URL and its token.
            </li>
          </ul>
        </div>
        <div className="grid gap-1.5">
          <p className="font-medium text-foreground">Or any AgentSkills client</p>
          <p>Keep a skills folder in step with one agent; run it from a timer or before the client starts:</p>
          <CommandLine command={`skilldock sync --url ${origin} --agent <id> --token <agent token> --dir <folder>`} label="Copy the sync command" />
          <p>An agent's page offers the command with its id and a token made for it.</p>
        </div>
      </div>
    </EmptyState>
  );
}
