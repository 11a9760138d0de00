import { accessApi } from './access';
import { agentEventsApi } from './agent-events';
import { agentsApi } from './agents';
import { gatewaysApi } from './gateways';
import { githubApi } from './github';
import { installsApi } from './installs';
import { jobsApi } from './jobs';
import { networkApi } from './network';
import { packagesApi } from './packages';
import { policyApi } from './policy';
import { sandboxArtifactsApi } from './sandbox-artifacts';
import { sandboxInstancesApi } from './sandbox-instances';
import { sandboxConfigsApi } from './sandboxes';
import { skillUpdatesApi } from './skill-updates';
import { skillsApi } from './skills';
import { terminalsApi } from './terminals';

/** Every API operation, one file per area. Route files bind these to handlers; the OpenAPI document is built from this list. */
export const api = {
  ...accessApi,
  ...jobsApi,
  ...packagesApi,
  ...githubApi,
  ...skillsApi,
  ...skillUpdatesApi,
  ...sandboxConfigsApi,
  ...sandboxInstancesApi,
  ...sandboxArtifactsApi,
  ...networkApi,
  ...terminalsApi,
  ...installsApi,
  ...agentsApi,
  ...agentEventsApi,
  ...policyApi,
  ...gatewaysApi,
} as const;

export type ApiName = keyof typeof api;
