'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { putAgentDefaultsAction } from '@/app/(console)/agents/actions';
import { putDefaultsInput } from '@/lib/agents/schema';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Label } from '../ui/input';
import { ErrorNote, Tip } from '../ui/misc';
import { Switch } from '../ui/switch';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { type BudgetDraft, BudgetFields } from './budget-fields';
import { fieldIssues } from './issues';
import { invalidateAgents } from './queries';
import { SkillListEditor } from './skill-list-editor';
import type { DefaultsView } from './view';

/** The instance defaults agents without their own list inherit: unrestricted, or a list; and the budget. */
export function DefaultsCard({ defaults, builtin, known }: { defaults: DefaultsView; builtin: BudgetDraft; known: ReadonlySet<string> | null }) {
  const can = useCan('agents.write');
  const qc = useQueryClient();
  const [list, setList] = useState<string[] | null>(defaults.skills);
  const [budget, setBudget] = useState<BudgetDraft | null>(defaults.budget);
  const body = { revision: defaults.revision, skills: list, budget };
  const issues = fieldIssues(putDefaultsInput, body);
  const dirty = JSON.stringify(list) !== JSON.stringify(defaults.skills) || JSON.stringify(budget) !== JSON.stringify(defaults.budget);
  const save = useOperation(putAgentDefaultsAction, {
    input: () => ({ body }),
    onSuccess: () => {
      toast.success('Saved the agent defaults');
      invalidateAgents(qc);
    },
  });
  const disabled = !can.allowed || save.isPending;
  return (
    <Card data-testid="agent-defaults">
      <CardHeader>
        <CardTitle>Defaults</CardTitle>
        <CardDescription>
          What an agent without its own list may use. Unrestricted lets it use every skill that is ready; a list allows exactly those names; an empty list
          allows none.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ErrorNote
          error={
            save.error?.code === 'conflict'
              ? new Error('The defaults were changed by someone else — reload the page to see their change, then edit again.')
              : save.error
          }
        />
        {/* The label names what the switch does when on; the line under it says where things stand. */}
        <div className="flex items-start gap-2">
          <Switch
            id="defaults-restrict"
            checked={list !== null}
            disabled={disabled}
            onCheckedChange={(on) => setList(on ? (defaults.skills ?? []) : null)}
            aria-describedby="defaults-restrict-state"
          />
          <div className="grid gap-0.5">
            <Label htmlFor="defaults-restrict">Restrict to a list</Label>
            <p id="defaults-restrict-state" className="text-xs text-muted-foreground" data-testid="defaults-restrict-state">
              {list === null
                ? 'Off: an agent without its own list may use every ready skill.'
                : 'On: an agent without its own list may use exactly these skills.'}
            </p>
          </div>
        </div>
        {list !== null ? (
          <SkillListEditor
            id="defaults-list"
            label="the defaults list"
            value={list}
            onChange={setList}
            known={known}
            disabled={disabled}
            testId="defaults-list"
          />
        ) : null}
        {issues.skills ? <p className="text-xs text-destructive">{issues.skills}</p> : null}
        <BudgetFields
          idPrefix="defaults"
          value={budget}
          onChange={setBudget}
          fallback={builtin}
          fallbackLabel="The built-in budget"
          disabled={disabled}
          error={issues.budget}
        />
        <div className="flex justify-end gap-2">
          {dirty ? (
            <Button
              variant="ghost"
              onClick={() => {
                setList(defaults.skills);
                setBudget(defaults.budget);
              }}
            >
              Discard
            </Button>
          ) : null}
          <Tip content={can.why}>
            <Button disabled={disabled || !dirty || Object.keys(issues).length > 0} onClick={() => save.mutate()} data-testid="save-defaults">
              {save.isPending ? 'Saving…' : 'Save defaults'}
            </Button>
          </Tip>
        </div>
      </CardContent>
    </Card>
  );
}
