import 'server-only';
import type { ApiName } from '../contracts';
import { accessOps } from './access';
import { agentEventOps } from './agent-events';
import { agentOps } from './agents';
import { gatewayOps } from './gateways';
import { githubOps } from './github';
import { installOps } from './installs';
import { jobOps } from './jobs';
import { networkOps } from './network';
import { packageOps } from './packages';
import { policyOps } from './policy';
import { sandboxArtifactOps } from './sandbox-artifacts';
import { sandboxInstanceOps } from './sandbox-instances';
import { sandboxConfigOps } from './sandboxes';
import { skillUpdateOps } from './skill-updates';
import { settingsOps, skillOps } from './skills';
import { terminalOps } from './terminals';

/** Every operation of the API, under the same names as the contracts they implement. */
export const ops = {
  ...accessOps,
  ...jobOps,
  ...packageOps,
  ...githubOps,
  ...skillOps,
  ...skillUpdateOps,
  ...settingsOps,
  ...sandboxConfigOps,
  ...sandboxInstanceOps,
  ...sandboxArtifactOps,
  ...networkOps,
  ...terminalOps,
  ...installOps,
  ...agentOps,
  ...agentEventOps,
  ...policyOps,
  ...gatewayOps,
} satisfies Record<ApiName, unknown>;

export type OpName = keyof typeof ops;
