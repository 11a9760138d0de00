import { defineContract } from '../../http/contract';
import {
  networkOut,
  networkTestInput,
  networkTestOut,
  putNetworkInput,
  putNetworkOut,
  validatePolicyInput,
  validatePolicyOut,
} from '../../network/policy/api-schema';
import { configIdParams } from '../../sandbox/config/schema';

const tag = 'Network rules';

/** The network policy of sandbox configs: read, validate, change (re-applied live), test a destination. */
export const networkApi = {
  validateNetworkPolicy: defineContract({
    method: 'POST',
    path: '/api/v1/network-policy/validate',
    tag,
    summary: 'Validate and normalise a policy for a backend, without saving it',
    description: 'Always 200 for a well-formed request: `valid` says whether the policy passed; `issues` name each rejected entry and the rule.',
    permission: 'sandboxes.read',
    body: validatePolicyInput,
    response: validatePolicyOut,
  }),
  getConfigNetwork: defineContract({
    method: 'GET',
    path: '/api/v1/sandbox-configs/{id}/network',
    tag,
    summary: 'A config\'s network policy (secrets as "***"), what enforces it, the always-blocked ranges and the install sources',
    permission: 'sandboxes.read',
    params: configIdParams,
    response: networkOut,
  }),
  setConfigNetwork: defineContract({
    method: 'PUT',
    path: '/api/v1/sandbox-configs/{id}/network',
    tag,
    summary: "Replace a config's network policy and re-apply it to its running sandboxes",
    description:
      'Answers 400 with the same issues as the validation route. `sandboxes` lists each running sandbox the change reached, or that needs a recycle.',
    permission: 'sandboxes.write',
    params: configIdParams,
    body: putNetworkInput,
    response: putNetworkOut,
  }),
  testConfigNetwork: defineContract({
    method: 'POST',
    path: '/api/v1/sandbox-configs/{id}/network/test',
    tag,
    summary: 'Whether a sandbox of this config may reach a destination under its saved rules or a draft, and which rule decides (no traffic is sent)',
    description:
      'With `policy`, the destination is judged against that draft instead of the saved policy: it is validated as a save would validate it (400 with the same issues), and nothing is saved or applied. `basis` says which rules decided.',
    permission: 'sandboxes.read',
    params: configIdParams,
    body: networkTestInput,
    response: networkTestOut,
  }),
} as const;
