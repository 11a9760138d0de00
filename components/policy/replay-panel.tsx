'use client';

import { History } from 'lucide-react';
import { useState } from 'react';
import { MAX_REPLAY } from '@/lib/api/policy-schemas';
import type { ProfileRules } from '@/lib/policy/types';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Field, Select } from '../ui/input';
import { ErrorNote } from '../ui/misc';
import { Textarea } from '../ui/textarea';
import { useCan } from '../viewer';
import { useAgents, useReplay } from './queries';
import { ReplayResults } from './replay-results';
import { commandLines } from './view';

type Source = 'paste' | 'agent';

/**
 * Replays recorded commands (pasted, or an agent's exec log) under the stored profile and under the
 * unsaved edits, so what newly passes or fails is seen before saving.
 */
export function ReplayPanel({ current, proposed, valid }: { current: string; proposed: () => ProfileRules; valid: boolean }) {
  const agentsRead = useCan('agents.read').allowed;
  const [source, setSource] = useState<Source>('paste');
  const [text, setText] = useState('');
  const [agentId, setAgentId] = useState('');
  const [limit, setLimit] = useState(200);
  const agents = useAgents(source === 'agent' && agentsRead);
  const replay = useReplay();
  const commands = commandLines(text, MAX_REPLAY + 1);
  const tooMany = commands.length > MAX_REPLAY;
  const ready = valid && (source === 'paste' ? commands.length > 0 && !tooMany : !!agentId);

  function run() {
    const body = source === 'paste' ? { commands, current, proposed: proposed() } : { agentId, limit, current, proposed: proposed() };
    replay.mutate(body);
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Replay before saving</CardTitle>
        <CardDescription>
          Decide recorded commands under <span className="font-mono">{current}</span> and under these edits; see what would newly pass or fail.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-3 sm:grid-cols-[12rem_1fr]">
          <Field label="Commands from" htmlFor="replay-source">
            <Select id="replay-source" value={source} onChange={(e) => setSource(e.target.value as Source)}>
              <option value="paste">A pasted list</option>
              <option value="agent" disabled={!agentsRead}>
                An agent's exec log
              </option>
            </Select>
          </Field>
          {source === 'paste' ? (
            <Field
              label="Commands, one per line"
              htmlFor="replay-commands"
              error={tooMany ? `At most ${MAX_REPLAY} commands.` : undefined}
              hint={
                commands.length ? `${commands.length} distinct ${commands.length === 1 ? 'command' : 'commands'}` : 'Paste commands from a log or a script.'
              }
            >
              <Textarea
                id="replay-commands"
                rows={6}
                value={text}
                onChange={(e) => setText(e.target.value)}
                spellCheck={false}
                className="font-mono text-xs"
                placeholder={'git status\nls -la\nsudo ls'}
              />
            </Field>
          ) : (
            <div className="grid gap-3 sm:grid-cols-[1fr_8rem]">
              <Field label="Agent" htmlFor="replay-agent" hint={agents.data && !agents.data.items.length ? 'No agents yet.' : undefined}>
                <Select id="replay-agent" value={agentId} onChange={(e) => setAgentId(e.target.value)} aria-busy={agents.isLoading}>
                  <option value="">Choose an agent…</option>
                  {agents.data?.items.map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.name}
                    </option>
                  ))}
                </Select>
              </Field>
              <Field label="Last N commands" htmlFor="replay-limit">
                <Select id="replay-limit" value={limit} onChange={(e) => setLimit(Number(e.target.value))}>
                  {[50, 200, 500, 1000].map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </Select>
              </Field>
            </div>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="button" variant="secondary" disabled={!ready || replay.isPending} onClick={run}>
            <History aria-hidden /> {replay.isPending ? 'Replaying…' : 'Replay'}
          </Button>
          {!valid ? <span className="text-xs text-muted-foreground">Fix the form's errors first.</span> : null}
        </div>
        <ErrorNote error={replay.error} />
        {replay.data ? <ReplayResults key={`${replay.submittedAt}`} result={replay.data} /> : null}
      </CardContent>
    </Card>
  );
}
