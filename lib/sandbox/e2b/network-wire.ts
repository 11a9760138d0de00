// A network policy in the form the E2B control plane (and CubeSandbox's copy of it) takes: the
// create body's `allow_internet_access` and `network`, and the flat body of the live update.
// Pure; header secrets arrive opened and only ever end up in the returned body.
import { AppError } from '@/lib/core/errors';
import type { NetworkPolicy } from '@/lib/network/policy/types';
import type { E2bKind } from './config';

/** E2B's "all traffic": a deny of it makes the allow list the only way out (allow beats deny). */
export const ALL_TRAFFIC = '0.0.0.0/0';

/**
 * CubeAPI's network model has no field for L7 rules (host/SNI, method, path, audit, header
 * injection), so cubeRules are kept with the config but not sent: Cube enforces only the CIDR lists.
 */
export const CUBE_L7_UNSENT =
  'CubeSandbox enforces only the IP/CIDR lists and deny-all: its API has no field for L7 rules, so these rules are stored but not sent to Cube.';

export interface WireRule {
  transform: { headers: Record<string, string> };
}

export interface WireNetwork {
  allowOut: string[];
  denyOut: string[];
  rules?: Record<string, WireRule[]>;
}

export interface NetworkWire {
  allow_internet_access: boolean;
  network: WireNetwork;
}

/** The body of `PUT /sandboxes/{id}/network`: flat, and whole (an omitted field is cleared). */
export type NetworkUpdateWire = { allow_internet_access: boolean } & WireNetwork;

const CIDR = /^[0-9a-f:.]+\/\d{1,3}$/i;

/** The key under which the lead passes one opened header secret. */
export const e2bSecretKey = (host: string, header: string) => `e2b:${host}:${header}`;

export function networkWire(kind: E2bKind, policy: NetworkPolicy, secrets: Record<string, string>): NetworkWire {
  const deny = policy.denyEgressByDefault;
  // Cube's egress filter keys on CIDRs only; a domain there would be passed through and not enforced.
  const allowOut = kind === 'cube' ? policy.allowOut.filter((e) => CIDR.test(e)) : [...policy.allowOut];
  const denyOut = deny && !policy.denyOut.includes(ALL_TRAFFIC) ? [ALL_TRAFFIC, ...policy.denyOut] : [...policy.denyOut];
  const network: WireNetwork = { allowOut, denyOut };
  if (kind === 'e2b' && policy.e2bHostRules.length) network.rules = hostRules(policy, secrets);
  return { allow_internet_access: !deny, network };
}

export function networkUpdateWire(kind: E2bKind, policy: NetworkPolicy, secrets: Record<string, string>): NetworkUpdateWire {
  const w = networkWire(kind, policy, secrets);
  return { allow_internet_access: w.allow_internet_access, ...w.network };
}

function hostRules(policy: NetworkPolicy, secrets: Record<string, string>): Record<string, WireRule[]> {
  const rules: Record<string, WireRule[]> = {};
  const missing: { path: string; message: string }[] = [];
  policy.e2bHostRules.forEach((r, i) => {
    const headers: Record<string, string> = {};
    for (const name of Object.keys(r.headers)) {
      const value = secrets[e2bSecretKey(r.host, name)];
      if (value === undefined) missing.push({ path: `e2bHostRules.${i}.headers.${name}`, message: 'the header value is not set' });
      else headers[name] = value;
    }
    rules[r.host] = [{ transform: { headers } }];
  });
  if (missing.length) throw new AppError('validation', 'Some E2B header values are not set; enter them again and save.', { issues: missing });
  return rules;
}
