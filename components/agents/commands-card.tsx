'use client';

import { Badge } from '../ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Skeleton } from '../ui/misc';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table';
import type { GatewaySkills } from './view';

type Command = GatewaySkills['commands'][number];

function dispatchText(c: Command): string {
  return c.commandDispatch === 'tool' ? `tool ${c.commandTool ?? '(no tool named)'} · args ${c.commandArgMode}` : 'through the model';
}

/** The agent's slash commands: every user-invocable skill it gets, user-only ones included (those the prompt leaves out). */
export function CommandsCard({ data }: { data: GatewaySkills | undefined }) {
  const commands = data?.commands ?? [];
  const userOnly = commands.filter((c) => !c.modelInvocable).length;
  return (
    <Card data-testid="commands-card">
      <CardHeader>
        <CardTitle>Commands</CardTitle>
        <CardDescription>
          Skills a user can run as a slash command. {userOnly ? `${userOnly} of them the model never sees (disable-model-invocation). ` : ''}A skill with
          user-invocable: false is not here.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {!data ? (
          <Skeleton className="h-16 w-full" />
        ) : commands.length === 0 ? (
          <p className="text-sm text-muted-foreground">No commands: none of this agent’s skills is user-invocable.</p>
        ) : (
          <Table data-testid="commands-table">
            <THead>
              <TR>
                <TH>Command</TH>
                <TH>Model</TH>
                <TH>Dispatch</TH>
              </TR>
            </THead>
            <TBody>
              {commands.map((c) => (
                <TR key={c.name} data-testid={`command-${c.name}`}>
                  <TD className="font-mono text-sm">
                    /{c.name} <Badge variant="secondary">command</Badge>
                  </TD>
                  <TD>{c.modelInvocable ? <Badge variant="success">in the prompt too</Badge> : <Badge variant="warning">user only</Badge>}</TD>
                  <TD className="text-xs text-muted-foreground">{dispatchText(c)}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}
