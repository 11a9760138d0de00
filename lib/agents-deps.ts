// What the agents domain needs of a process's services, built in one place: the operations and the
// composition root (the policy and gateways services ask agents for their effective answers) share it.
import os from 'node:os';
import type { AgentsDeps } from './agents/service';
import { agentPolicy } from './policy/profiles/store';
import { policyEngine, presetDefs } from './policy/runtime';
import type { Services } from './services-shape';

export type AgentsDepsSource = Pick<Services, 'database' | 'config' | 'skills' | 'sandboxes' | 'imageProbes' | 'agents' | 'agentProbes'>;

export const agentsDeps = (s: AgentsDepsSource): AgentsDeps => ({
  db: s.database.db,
  dataDir: s.config.dataDir,
  snapshot: () => s.skills.snapshot(),
  gate: { ...s.sandboxes, probes: s.imageProbes },
  home: os.homedir(),
  memo: s.agents,
  probes: s.agentProbes,
  policy: { engine: policyEngine, agent: (id) => agentPolicy({ db: s.database.db, presets: presetDefs() }, id) },
});
