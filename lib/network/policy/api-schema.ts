// Inputs and outputs of the network routes: the policy of a config, its validation, the tester.
import { z } from 'zod';
import { networkPolicySchema } from './schema';

const backend = z.enum(['docker', 'e2b', 'cube'], { error: 'The backend is docker, e2b or cube.' });
const issue = z.object({ path: z.string(), message: z.string() });
const normalisedPolicy = z.object({
  denyEgressByDefault: z.boolean(),
  allowOut: z.array(z.string()),
  denyOut: z.array(z.string()),
  cubeRules: z.array(z.record(z.string(), z.unknown())),
  e2bHostRules: z.array(z.record(z.string(), z.unknown())),
});

export const validatePolicyInput = z.strictObject({ backend, policy: networkPolicySchema });
export const validatePolicyOut = z.object({
  valid: z.boolean(),
  policy: normalisedPolicy.nullable().describe('The normalised policy when valid'),
  issues: z.array(issue),
});

export const enforcedBy = z.enum(['host-firewall+proxy', 'proxy-only', 'e2b', 'cube', 'none']);

export const putNetworkInput = z.strictObject({ policy: networkPolicySchema });

export const networkTestInput = z.strictObject({
  destination: z.string().trim().min(1, 'Enter a host, host:port, IP or URL.').max(2100, 'At most 2100 characters.'),
  policy: putNetworkInput.shape.policy
    .optional()
    .describe('A draft policy to test instead of the saved one, validated as a save would validate it; nothing is saved or applied'),
});
export const networkTestOut = z.object({
  allowed: z.boolean(),
  basis: z.enum(['draft', 'saved']).describe('Which rules decided: the draft policy sent with the request, or the saved policy'),
  rule: z.string().describe('Which rule decided, in one sentence'),
  kind: z.string(),
  entry: z.string().nullable(),
  enforcedBy,
  caveat: z.string().nullable().describe('When the backend would not decide this destination as the rules say: what it does instead'),
  destination: z.object({ host: z.string(), port: z.number(), kind: z.enum(['ip', 'domain']) }),
});

const range = z.object({ cidr: z.string(), why: z.string() });
export const networkOut = z.object({
  policy: normalisedPolicy.describe('Secrets as "***"'),
  enforcedBy,
  enforcement: z.string().describe('What enforces the policy, in one sentence'),
  liveUpdate: z.boolean().describe('Whether running sandboxes take a change without a recycle'),
  backendGaps: z.array(z.string()).describe('What this backend does not enforce as the rules say, one sentence each'),
  alwaysBlocked: z.array(range),
  privateRanges: z.array(range),
  installSources: z.array(z.object({ manager: z.string(), label: z.string(), entries: z.array(z.string()) })),
});

export const sandboxReached = z.object({
  sandboxId: z.string(),
  status: z.enum(['updated', 'needs-recycle', 'failed']),
  message: z.string(),
});
export const putNetworkOut = networkOut.extend({ sandboxes: z.array(sandboxReached) });
