import { type NetworkPolicy, OPEN_POLICY } from './types';

/** The default policy: outbound open, nothing listed (the always-blocked ranges still apply). */
export function isOpenPolicy(p: NetworkPolicy): boolean {
  return !p.denyEgressByDefault && !p.allowOut.length && !p.denyOut.length && !p.cubeRules.length && !p.e2bHostRules.length;
}

/** A stored policy column as a whole policy (older rows and absent fields read as the defaults). */
export function storedPolicy(row: { networkPolicy?: Record<string, unknown> | null }): NetworkPolicy {
  return { ...OPEN_POLICY, ...((row.networkPolicy ?? {}) as Partial<NetworkPolicy>) };
}
