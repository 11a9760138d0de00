'use client';

import { ChevronRight, Search } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Input } from '../ui/input';
import { ErrorNote, RetryableError, Skeleton } from '../ui/misc';
import { TabCount, Tabs, TabsList, TabsTrigger } from '../ui/tabs';
import { CommandsCard } from './commands-card';
import { useAgentSkills, useExplain } from './queries';
import { TraceSteps, traceVerdict, traceWarning } from './trace-view';
import { costText, type SkillTraceView } from './view';

const PAGE = 100;
type Filter = 'visible' | 'hidden' | 'excluded';

function TraceRow({ trace, open, onToggle, extra }: { trace: SkillTraceView; open: boolean; onToggle: () => void; extra?: React.ReactNode }) {
  const v = traceVerdict(trace);
  const warning = traceWarning(trace);
  return (
    <li className="py-2" data-testid={`trace-${trace.name}`} data-effective={trace.effective}>
      <button
        type="button"
        onClick={onToggle}
        aria-expanded={open}
        className="flex w-full flex-wrap items-center gap-2 rounded text-left focus-visible:outline-2 focus-visible:outline-ring"
      >
        <ChevronRight aria-hidden className={`size-4 transition-transform ${open ? 'rotate-90' : ''}`} />
        <span className="font-mono text-sm font-medium">{trace.name}</span>
        <Badge variant={v.variant}>{v.label}</Badge>
        {warning ? (
          <Badge variant="warning" title={warning.detail} data-testid={`policy-warning-${trace.name}`}>
            commands refused by the exec policy
          </Badge>
        ) : null}
        {extra}
      </button>
      {open ? (
        <div className="mt-2 pl-6">
          <TraceSteps trace={trace} />
        </div>
      ) : null}
    </li>
  );
}

/** Why is skill X not visible: the trace of one name, also for a name the catalog does not know. */
function WhyLookup({ agentId }: { agentId: string }) {
  const [text, setText] = useState('');
  const [asked, setAsked] = useState('');
  return (
    <Card>
      <CardHeader>
        <CardTitle>Why is a skill not visible?</CardTitle>
        <CardDescription>Type a skill name to see each step it passes or fails for this agent.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <form
          className="flex gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            setAsked(text.trim());
          }}
        >
          <Input
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="skill name"
            aria-label="Skill name to explain"
            className="h-8 max-w-xs font-mono"
          />
          <Button type="submit" size="sm" disabled={!text.trim()} data-testid="explain-submit">
            <Search aria-hidden /> Explain
          </Button>
        </form>
        {asked ? <WhyAnswer agentId={agentId} name={asked} /> : null}
      </CardContent>
    </Card>
  );
}

function WhyAnswer({ agentId, name }: { agentId: string; name: string }) {
  const q = useExplain(agentId, name);
  if (q.isPending) return <Skeleton className="h-16 w-full" />;
  if (q.error) return <ErrorNote error={q.error} />;
  const t = q.data.traces[0];
  return (
    <div data-testid="explain-answer" className="rounded-md border p-3">
      <TraceRow trace={t} open onToggle={() => {}} />
    </div>
  );
}

/** The agent's effective skills, each with its trace; the skills it does not get and why. */
export function EffectiveTab({ agentId }: { agentId: string }) {
  const explain = useExplain(agentId);
  const skills = useAgentSkills(agentId);
  const [filter, setFilter] = useState<Filter>('visible');
  const [q, setQ] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [shown, setShown] = useState(PAGE);
  if (explain.error) return <RetryableError error={explain.error} onRetry={() => void explain.refetch()} />;
  // The tabs count what the search matches, so a count always equals the rows its tab shows.
  const needle = q.trim().toLowerCase();
  const traces = (explain.data?.traces ?? []).filter((t) => !needle || t.name.includes(needle));
  const groups: Record<Filter, SkillTraceView[]> = {
    visible: traces.filter((t) => t.effective),
    hidden: traces.filter((t) => !t.effective && !t.excluded),
    excluded: traces.filter((t) => t.excluded),
  };
  const list = groups[filter];
  const commands = new Map((skills.data?.commands ?? []).map((c) => [c.name, c]));
  const byName = new Map([...(skills.data?.commands ?? []), ...(skills.data?.skills ?? [])].map((s) => [s.name, s]));
  const e = explain.data;
  return (
    <div className="grid gap-4">
      <Card data-testid="effective-card">
        <CardHeader>
          <CardTitle>Effective skills</CardTitle>
          <CardDescription>
            {e ? (
              <span data-testid="effective-summary">
                {e.effective.length} skill{e.effective.length === 1 ? '' : 's'} on {e.target.kind === 'host' ? 'the host' : `sandbox ${e.target.label}`} ·
                prompt {costText(e.prompt.chars, e.prompt.tokens)}
                {e.prompt.truncated ? ' · truncated by the budget' : e.prompt.form === 'compact' ? ' · compact form' : ''}
              </span>
            ) : (
              'Loading…'
            )}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <div className="flex flex-wrap items-center gap-2">
            <Tabs value={filter} onValueChange={(v) => setFilter(v as Filter)}>
              <TabsList aria-label="Which skills">
                <TabsTrigger value="visible">
                  Visible <TabCount n={e ? groups.visible.length : undefined} />
                </TabsTrigger>
                <TabsTrigger value="hidden">
                  Not visible <TabCount n={e ? groups.hidden.length : undefined} />
                </TabsTrigger>
                <TabsTrigger value="excluded">
                  Not on the list <TabCount n={e ? groups.excluded.length : undefined} />
                </TabsTrigger>
              </TabsList>
            </Tabs>
            <Input
              type="search"
              value={q}
              onChange={(ev) => setQ(ev.target.value)}
              placeholder="Filter by name…"
              aria-label="Filter skills by name"
              className="h-8 w-48"
            />
          </div>
          {!e ? (
            <Skeleton className="h-24 w-full" />
          ) : list.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              {filter === 'visible' ? 'This agent gets no skills: check its list, the defaults, and the skills’ readiness.' : 'None.'}
            </p>
          ) : (
            <ul className="grid divide-y" data-testid={`traces-${filter}`}>
              {list.slice(0, shown).map((t) => {
                const s = byName.get(t.name);
                return (
                  <TraceRow
                    key={t.name}
                    trace={t}
                    open={open === t.name}
                    onToggle={() => setOpen(open === t.name ? null : t.name)}
                    extra={
                      <>
                        {commands.has(t.name) ? (
                          <Badge
                            variant="secondary"
                            data-testid={`command-badge-${t.name}`}
                            title={commands.get(t.name)!.modelInvocable ? 'also a slash command' : 'a slash command only: not in the prompt'}
                          >
                            command
                          </Badge>
                        ) : null}
                        {s ? <code className="min-w-0 truncate text-xs text-muted-foreground">{s.location}</code> : null}
                      </>
                    }
                  />
                );
              })}
            </ul>
          )}
          {list.length > shown ? (
            <Button variant="outline" size="sm" className="justify-self-center" onClick={() => setShown((n) => n + PAGE)}>
              Show more
            </Button>
          ) : null}
        </CardContent>
      </Card>
      <CommandsCard data={skills.data} />
      <WhyLookup agentId={agentId} />
    </div>
  );
}
