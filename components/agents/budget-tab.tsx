'use client';

import { useState } from 'react';
import { useDebounced } from '../skills/use-skill-filters';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { CopyButton } from '../ui/copy-button';
import { Input, Label } from '../ui/input';
import { ErrorNote, Skeleton } from '../ui/misc';
import { Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { useBudgetPlan } from './queries';
import { type BudgetPlan, costText, fmt } from './view';

const STATE: Record<BudgetPlan['skills'][number]['state'], { label: string; variant: 'success' | 'secondary' | 'warning' | 'destructive' }> = {
  full: { label: 'in prompt', variant: 'success' },
  compact: { label: 'in prompt, compact', variant: 'secondary' },
  'cut-count': { label: 'cut: max skills', variant: 'destructive' },
  'cut-chars': { label: 'cut: max characters', variant: 'destructive' },
};
const PAGE = 200;

/** The budget planner and the rendered catalog: each skill's cost, and what a budget keeps, compacts or cuts. */
export function BudgetTab({ agentId }: { agentId: string }) {
  const [tryText, setTryText] = useState({ maxSkills: '', maxChars: '' });
  const debounced = useDebounced(tryText, 300);
  const tryBudget = { maxSkills: Number(debounced.maxSkills) || undefined, maxChars: Number(debounced.maxChars) || undefined };
  const q = useBudgetPlan(agentId, tryBudget);
  const [shown, setShown] = useState(PAGE);
  const p = q.data;
  return (
    <div className="grid gap-4">
      <Card data-testid="budget-planner">
        <CardHeader>
          <CardTitle>Budget planner</CardTitle>
          <CardDescription>
            The prompt uses the full form when it fits, else the compact form (names and locations, no descriptions), else the first skills in name order that
            fit, behind a truncation note. Try another budget here; nothing is saved.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="flex flex-wrap items-end gap-3">
            <div className="grid gap-1.5">
              <Label htmlFor="try-max-skills">Try max skills</Label>
              <Input
                id="try-max-skills"
                type="number"
                min={1}
                className="h-8 w-32"
                placeholder={p ? String(p.agentBudget.maxSkills) : ''}
                value={tryText.maxSkills}
                onChange={(e) => setTryText({ ...tryText, maxSkills: e.target.value })}
              />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="try-max-chars">Try max characters</Label>
              <Input
                id="try-max-chars"
                type="number"
                min={1}
                className="h-8 w-36"
                placeholder={p ? String(p.agentBudget.maxChars) : ''}
                value={tryText.maxChars}
                onChange={(e) => setTryText({ ...tryText, maxChars: e.target.value })}
              />
            </div>
            {tryText.maxChars || tryText.maxSkills ? (
              <Button variant="ghost" size="sm" onClick={() => setTryText({ maxSkills: '', maxChars: '' })}>
                Back to the agent’s budget
              </Button>
            ) : null}
          </div>
          <ErrorNote error={q.error} />
          {!p ? (
            <Skeleton className="h-24 w-full" />
          ) : (
            <>
              <dl className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-4" data-testid="budget-facts">
                <div>
                  <dt className="text-muted-foreground">{p.trying ? 'Budget tried' : p.ownBudget ? 'Own budget' : 'Budget (inherited)'}</dt>
                  <dd>
                    {fmt(p.budget.maxSkills)} skills · {fmt(p.budget.maxChars)} chars
                  </dd>
                </div>
                <div>
                  <dt className="text-muted-foreground">The prompt</dt>
                  <dd data-testid="budget-prompt-cost">
                    {costText(p.prompt.chars, p.prompt.tokens)} · {p.prompt.form}
                    {p.prompt.truncated ? (
                      <Badge variant="warning" className="ml-1">
                        truncated
                      </Badge>
                    ) : null}
                  </dd>
                </div>
                <div>
                  <dt className="text-muted-foreground">All {p.candidates} in full form</dt>
                  <dd>{fmt(p.fullChars)} chars</dd>
                </div>
                <div>
                  <dt className="text-muted-foreground">Compact form would drop</dt>
                  <dd>
                    every description: {fmt(p.fullChars - p.compactChars)} chars (total {fmt(p.compactChars)})
                  </dd>
                </div>
              </dl>
              {p.prompt.cut.length ? (
                <p className="text-sm" data-testid="budget-cut">
                  Truncation drops {p.prompt.cut.length} skill{p.prompt.cut.length === 1 ? '' : 's'}:{' '}
                  <span className="font-mono">{p.prompt.cut.slice(0, 20).join(', ')}</span>
                  {p.prompt.cut.length > 20 ? ` and ${p.prompt.cut.length - 20} more` : ''}.
                </p>
              ) : null}
              {p.skills.length ? (
                <Table aria-label="Cost of each skill">
                  <THead>
                    <TR className="hover:bg-transparent">
                      <TH>Skill</TH>
                      <TH className="text-right">Full form</TH>
                      <TH className="text-right">Compact form</TH>
                      <TH>Under this budget</TH>
                    </TR>
                  </THead>
                  <TBody>
                    {p.skills.slice(0, shown).map((s) => (
                      <TR key={s.name} data-testid={`plan-${s.name}`} data-state={s.state}>
                        <TD className="font-mono text-xs">{s.name}</TD>
                        <TD className="text-right tabular-nums">{fmt(s.full)}</TD>
                        <TD className="text-right tabular-nums">{fmt(s.compact)}</TD>
                        <TD>
                          <Badge variant={STATE[s.state].variant}>{STATE[s.state].label}</Badge>
                        </TD>
                      </TR>
                    ))}
                  </TBody>
                </Table>
              ) : (
                <p className="text-sm text-muted-foreground">No skill passes every step before the prompt: the prompt is empty.</p>
              )}
              {p.skills.length > shown ? (
                <Button variant="outline" size="sm" className="justify-self-center" onClick={() => setShown((n) => n + PAGE)}>
                  Show more
                </Button>
              ) : null}
            </>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-2">
          <div className="grid gap-1">
            <CardTitle>Rendered catalog</CardTitle>
            <CardDescription>Exactly the text the agent’s prompt carries{p?.trying ? ' under the budget tried' : ''}.</CardDescription>
          </div>
          {p?.prompt.text ? <CopyButton value={p.prompt.text} label="Copy the rendered catalog" /> : null}
        </CardHeader>
        <CardContent>
          {p ? (
            p.prompt.text ? (
              <pre className="max-h-[32rem] overflow-auto rounded-md bg-muted p-3 font-mono text-xs" data-testid="prompt-text" tabIndex={0}>
                {p.prompt.text}
              </pre>
            ) : (
              <p className="text-sm text-muted-foreground">Empty: the agent has no skills in its prompt.</p>
            )
          ) : (
            <Skeleton className="h-40 w-full" />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
