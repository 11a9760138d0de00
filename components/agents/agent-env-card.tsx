'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { setAgentEnvAction, unsetAgentEnvAction } from '@/app/(console)/agents/actions';
import { get } from '@/components/api';
import { agentsApi } from '@/lib/api/contracts/agents';
import { PersonalEnvCard } from '../sandboxes/personal-env-card';
import { useOperation } from '../use-operation';
import { useCan } from '../viewer';
import { invalidateAgents } from './queries';

type SetBody = Parameters<typeof setAgentEnvAction>[0]['body'];
type UnsetBody = Parameters<typeof unsetAgentEnvAction>[0]['body'];

/** The agent's own variables: given to its execs (per config), or to execs that name a skill (per skill). */
export function AgentEnvCard({ agentId, configId }: { agentId: string; configId: string | null }) {
  const qc = useQueryClient();
  const key = ['agents', 'env', agentId];
  const list = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => get(agentsApi.listAgentEnv, { params: { id: agentId }, signal }),
  });
  // A variable can make a skill eligible for this agent: every agents query is read again.
  const settled = () => {
    void qc.invalidateQueries({ queryKey: key });
    invalidateAgents(qc);
  };
  const set = useOperation(setAgentEnvAction, { input: (body: SetBody) => ({ params: { id: agentId }, body }), onSettled: settled });
  const unset = useOperation(unsetAgentEnvAction, { input: (body: UnsetBody) => ({ params: { id: agentId }, body }), onSettled: settled });
  return (
    <PersonalEnvCard
      id="agent-env"
      title="Agent variables"
      description="Values only this agent's commands get, over the config's and the skill's workspace values of the same name: for every exec in one sandbox config, or for the execs that name one skill (only names the skill declares). Never shown again once set."
      empty="No variables of its own: its execs get the config's variables, and the skill's workspace variables when they name the skill."
      removeNote="The agent's value is deleted and cannot be shown again; a lower level's value of the same name, if any, applies again."
      can={useCan('agents.write')}
      list={list}
      set={set}
      unset={unset}
      configId={configId ?? ''}
    />
  );
}
