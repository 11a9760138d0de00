'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { updateAgentAction } from '@/app/(console)/agents/actions';
import { patchAgentInput } from '@/lib/agents/schema';
import type { PolicyOverrides } from '@/lib/policy/profiles/schema';
import { ProfileOptionGroups } from '../policy/profile-options';
import { useDenyGroups, useProfiles } from '../policy/queries';
import { profileLabel } from '../policy/view';
import { Button } from '../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { Field, Select } from '../ui/input';
import { RetryableError, Tip } from '../ui/misc';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { AgentPolicyEffective } from './agent-policy-effective';
import { AgentPolicyExecs } from './agent-policy-execs';
import { AgentPolicyOverrides, normalOverrides } from './agent-policy-overrides';
import { fieldIssues } from './issues';
import { agentKey, invalidateAgents } from './queries';
import { AgentSaveError } from './revision-conflict';
import type { AgentView } from './view';

/** A null profile is the default one: the server decides such an agent with balanced. */
const DEFAULT_PROFILE = 'balanced';

const draftOf = (a: AgentView) => ({
  riskProfile: a.riskProfile === DEFAULT_PROFILE ? null : a.riskProfile,
  policyOverrides: normalOverrides(a.policyOverrides as PolicyOverrides | null),
});
type Draft = ReturnType<typeof draftOf>;

/** JSON with object keys sorted, so a group set and unset again compares equal. */
const canon = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x,
  );

/** The agent's exec policy: its risk profile and per-agent overrides (saved with its revision), the effective rules, its recent execs. */
export function AgentPolicyCard({ agent, onReload }: { agent: AgentView; onReload: () => Promise<AgentView | undefined> }) {
  const can = useCan('agents.write');
  const qc = useQueryClient();
  const profiles = useProfiles();
  const groups = useDenyGroups();
  // Like the settings editor: the draft stays on the revision it started from; a stale save is refused (409).
  const [base, setBase] = useState(agent);
  const [d, setD] = useState<Draft>(() => draftOf(agent));
  const restart = (a: AgentView) => {
    setBase(a);
    setD(draftOf(a));
  };
  const body = { revision: base.revision, riskProfile: d.riskProfile, policyOverrides: d.policyOverrides };
  const issues = fieldIssues(patchAgentInput, body);
  const dirty = canon(draftOf(base)) !== canon(d);
  const save = useOperation(updateAgentAction, {
    input: () => ({ params: { id: agent.id }, body }),
    onSuccess: (a) => {
      restart(a);
      qc.setQueryData(agentKey(a.id), a);
      toast.success(`Saved the exec policy of ${a.id}`);
      invalidateAgents(qc);
    },
  });
  const disabled = !can.allowed || save.isPending;
  const name = d.riskProfile ?? DEFAULT_PROFILE;
  const items = profiles.data?.items ?? [];
  const selected = items.find((p) => p.name === name);
  return (
    <div className="grid gap-4">
      <Card data-testid="agent-policy">
        <CardHeader>
          <CardTitle>Exec policy</CardTitle>
          <CardDescription>
            How the gateway&apos;s exec decides this agent&apos;s commands: a risk profile, and settings overridden for this agent alone. Revision{' '}
            {base.revision}: an edit someone else saved first is refused, never overwritten.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <AgentSaveError error={save.error} reload={onReload} restart={restart} reset={save.reset} />
          {profiles.error ? <RetryableError error={profiles.error} onRetry={() => void profiles.refetch()} /> : null}
          {groups.error ? <RetryableError error={groups.error} onRetry={() => void groups.refetch()} /> : null}
          <Field
            label="Risk profile"
            htmlFor="policy-profile"
            error={issues.riskProfile}
            hint={selected ? selected.description || undefined : profiles.data ? 'This profile no longer exists: pick another.' : undefined}
          >
            <Tip content={can.why}>
              <Select
                id="policy-profile"
                className="sm:w-80"
                value={name}
                disabled={disabled}
                aria-busy={profiles.isPending}
                onChange={(e) => setD((x) => ({ ...x, riskProfile: e.target.value === DEFAULT_PROFILE ? null : e.target.value }))}
              >
                {!selected ? (
                  <option value={name}>
                    {profileLabel(name)}
                    {profiles.data ? ' (not found)' : ''}
                  </option>
                ) : null}
                <ProfileOptionGroups items={items} defaultProfile={profiles.data?.defaultProfile ?? DEFAULT_PROFILE} label={profileLabel} />
              </Select>
            </Tip>
          </Field>
          <section className="grid gap-2" aria-labelledby="policy-overrides-title">
            <h3 id="policy-overrides-title" className="text-sm font-semibold">
              Overrides for this agent
            </h3>
            {profiles.data && !selected ? (
              <p className="text-sm text-muted-foreground">Pick an existing profile to override its settings.</p>
            ) : (
              <AgentPolicyOverrides
                value={d.policyOverrides}
                onChange={(policyOverrides) => setD((x) => ({ ...x, policyOverrides }))}
                profile={selected?.rules}
                profileName={profileLabel(name)}
                groups={groups.data?.items}
                disabled={disabled}
              />
            )}
            {issues.policyOverrides ? <p className="text-xs text-destructive">{issues.policyOverrides}</p> : null}
          </section>
          <div className="flex justify-end gap-2">
            {dirty ? (
              <Button variant="ghost" onClick={() => setD(draftOf(base))}>
                Discard
              </Button>
            ) : null}
            <Tip content={can.why}>
              <Button disabled={disabled || !dirty || Object.keys(issues).length > 0} onClick={() => save.mutate()} data-testid="save-agent-policy">
                {save.isPending ? 'Saving…' : 'Save exec policy'}
              </Button>
            </Tip>
          </div>
        </CardContent>
      </Card>
      <AgentPolicyEffective agentId={agent.id} unsaved={dirty} />
      <AgentPolicyExecs agentId={agent.id} />
    </div>
  );
}
