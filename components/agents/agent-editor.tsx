'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { updateAgentAction } from '@/app/(console)/agents/actions';
import { patchAgentInput } from '@/lib/agents/schema';
import { useSandboxConfigs } from '../sandboxes/queries';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Field, Input, Label, Select } from '../ui/input';
import { Tip } from '../ui/misc';
import { Switch } from '../ui/switch';
import { Textarea } from '../ui/textarea';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { type BudgetDraft, BudgetFields } from './budget-fields';
import { fieldIssues } from './issues';
import { invalidateAgents } from './queries';
import { AgentSaveError } from './revision-conflict';
import { SkillListEditor } from './skill-list-editor';
import type { AgentView } from './view';

const draftOf = (a: AgentView) => ({
  name: a.name,
  description: a.description,
  sandboxConfigId: a.sandboxConfigId,
  own: a.skills !== null,
  skills: a.skills ?? [],
  denySkills: a.denySkills,
  budget: a.budget as BudgetDraft | null,
});
type Draft = ReturnType<typeof draftOf>;

/** The agent's settings: name, description, sandbox config, its own list or the defaults, deny list, budget. */
export function AgentEditor({
  agent,
  known,
  fallbackBudget,
  onReload,
}: {
  agent: AgentView;
  known: ReadonlySet<string> | null;
  fallbackBudget: BudgetDraft;
  onReload: () => Promise<AgentView | undefined>;
}) {
  const can = useCan('agents.write');
  const qc = useQueryClient();
  const configs = useSandboxConfigs();
  // The draft starts from one revision and stays on it while the page refetches: a save from a stale
  // revision is then refused (409) instead of silently following someone else's change.
  const [base, setBase] = useState(agent);
  const [d, setD] = useState<Draft>(() => draftOf(agent));
  const restart = (a: AgentView) => {
    setBase(a);
    setD(draftOf(a));
  };
  const set = (patch: Partial<Draft>) => setD((x) => ({ ...x, ...patch }));
  const body = {
    revision: base.revision,
    name: d.name,
    description: d.description,
    sandboxConfigId: d.sandboxConfigId,
    skills: d.own ? d.skills : null,
    denySkills: d.denySkills,
    budget: d.budget,
  };
  const issues = fieldIssues(patchAgentInput, body);
  const dirty = JSON.stringify(draftOf(base)) !== JSON.stringify(d);
  const save = useOperation(updateAgentAction, {
    input: () => ({ params: { id: agent.id }, body }),
    onSuccess: (a) => {
      restart(a);
      toast.success(`Saved ${a.id}`, { description: a.warnings.length ? a.warnings.join(' ') : undefined });
      invalidateAgents(qc);
    },
  });
  const disabled = !can.allowed || save.isPending;
  return (
    <Card data-testid="agent-editor">
      <CardHeader>
        <CardTitle>Settings</CardTitle>
        <CardDescription>Revision {base.revision}: an edit someone else saved first is refused, never overwritten.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <AgentSaveError error={save.error} reload={onReload} restart={restart} reset={save.reset} />
        <div className="grid gap-4 md:grid-cols-2">
          <Field label="Name" htmlFor="edit-name" error={issues.name}>
            <Input id="edit-name" value={d.name} disabled={disabled} aria-invalid={!!issues.name} onChange={(e) => set({ name: e.target.value })} />
          </Field>
          <Field label="Sandbox config" htmlFor="edit-config" error={issues.sandboxConfigId} hint="Skills run on the host, or in this config's image.">
            <Select id="edit-config" value={d.sandboxConfigId ?? ''} disabled={disabled} onChange={(e) => set({ sandboxConfigId: e.target.value || null })}>
              <option value="">None — the host</option>
              {(configs.data?.items ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
              {d.sandboxConfigId && configs.data && !configs.data.items.some((c) => c.id === d.sandboxConfigId) ? (
                <option value={d.sandboxConfigId}>{d.sandboxConfigId} (missing)</option>
              ) : null}
            </Select>
          </Field>
        </div>
        <Field label="Description" htmlFor="edit-description" error={issues.description}>
          <Textarea id="edit-description" rows={2} value={d.description} disabled={disabled} onChange={(e) => set({ description: e.target.value })} />
        </Field>
        <div className="grid gap-2">
          <div className="flex items-start gap-2">
            <Switch
              id="edit-own"
              checked={d.own}
              disabled={disabled}
              onCheckedChange={(own) => set({ own })}
              data-testid="edit-own-list"
              aria-describedby="edit-own-state"
            />
            <div className="grid gap-0.5">
              <Label htmlFor="edit-own">Use its own list</Label>
              <p id="edit-own-state" className="text-xs text-muted-foreground" data-testid="edit-own-state">
                {d.own ? 'On: exactly these skills; the defaults do not apply.' : 'Off: it inherits the defaults.'}
              </p>
            </div>
          </div>
          {d.own ? (
            <SkillListEditor
              id="edit-skills"
              label="the allowlist"
              value={d.skills}
              onChange={(skills) => set({ skills })}
              known={known}
              disabled={disabled}
              testId="edit-allowlist"
            />
          ) : null}
          {d.own && !d.skills.length ? <p className="text-xs text-muted-foreground">An empty own list means no skills.</p> : null}
          {issues.skills ? <p className="text-xs text-destructive">{issues.skills}</p> : null}
        </div>
        <div className="grid gap-2">
          <Label htmlFor="edit-deny">Deny list (wins over any allowlist)</Label>
          <SkillListEditor
            id="edit-deny"
            label="the deny list"
            value={d.denySkills}
            onChange={(denySkills) => set({ denySkills })}
            known={known}
            disabled={disabled}
            testId="edit-denylist"
          />
          {issues.denySkills ? <p className="text-xs text-destructive">{issues.denySkills}</p> : null}
        </div>
        <BudgetFields
          idPrefix="edit"
          value={d.budget}
          onChange={(budget) => set({ budget })}
          fallback={fallbackBudget}
          fallbackLabel="Follows the defaults"
          disabled={disabled}
          error={issues.budget}
        />
        <div className="flex justify-end gap-2">
          {dirty ? (
            <Button variant="ghost" onClick={() => setD(draftOf(base))}>
              Discard
            </Button>
          ) : null}
          <Tip content={can.why}>
            <Button disabled={disabled || !dirty || Object.keys(issues).length > 0} onClick={() => save.mutate()} data-testid="save-agent">
              {save.isPending ? 'Saving…' : 'Save'}
            </Button>
          </Tip>
        </div>
      </CardContent>
    </Card>
  );
}
