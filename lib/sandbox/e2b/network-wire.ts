// A network policy in the form the E2B control plane (and CubeSandbox's copy of it) takes: the
// create body's `allow_internet_access` and `network`, and the flat body of the live update.
// Pure; header secrets arrive opened and only ever end up in the returned body.
//
// Both backends let an allow entry beat every deny, and know nothing of Skilldock's fixed ranges:
// the always-blocked and private ranges are sent in denyOut, and an allowed CIDR that holds
// always-blocked addresses is sent as its pieces outside them (so no allow can reopen them).
import { AppError } from '@/lib/core/errors';
import { subtractCidrs } from '@/lib/network/policy/cidr-split';
import { compilePolicy, isDenyAll } from '@/lib/network/policy/compile';
import { DENY_ALL_V6 } from '@/lib/network/policy/entry';
import { ALWAYS_BLOCKED_V4, ALWAYS_BLOCKED_V6, PRIVATE_V4, PRIVATE_V6 } from '@/lib/network/policy/ranges';
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

const BLOCKED = [...ALWAYS_BLOCKED_V4, ...ALWAYS_BLOCKED_V6].map((r) => r.cidr);
/** Sent in every denyOut: the always-blocked ranges, then the private ones (an allow entry may still open those). */
export const FIXED_DENY_OUT: readonly string[] = [...BLOCKED, ...[...PRIVATE_V4, ...PRIVATE_V6].map((r) => r.cidr)];
/** What denyOut starts with when the policy denies by default: both families. */
export const DENY_ALL_OUT: readonly string[] = [ALL_TRAFFIC, DENY_ALL_V6];
/** Pieces of split allow entries a body may carry; past it the policy is refused rather than sent in part. */
const MAX_ALLOW = 2000;

/** The allow list as sent: domains as they are (E2B only), each CIDR without its always-blocked parts. */
function wireAllow(kind: E2bKind, allowOut: string[]): string[] {
  const out = new Set<string>();
  for (const e of allowOut) {
    if (!CIDR.test(e)) {
      // Cube's egress filter keys on CIDRs only; a domain there would be passed through and not enforced.
      if (kind === 'e2b') out.add(e);
      continue;
    }
    for (const piece of subtractCidrs(e, BLOCKED)) out.add(piece);
  }
  if (out.size > MAX_ALLOW) {
    throw new AppError(
      'validation',
      `The allow list splits into ${out.size} ranges around the always-blocked ones (at most ${MAX_ALLOW}); allow narrower ranges.`,
      { issues: [{ path: 'allowOut', message: 'too many ranges once the always-blocked ones are cut out' }] },
    );
  }
  return [...out];
}

export function networkWire(kind: E2bKind, policy: NetworkPolicy, secrets: Record<string, string>): NetworkWire {
  // 0.0.0.0/0 or ::/0 in denyOut denies both families, as the switch does.
  const deny = isDenyAll(compilePolicy(policy));
  const denyOut = [...new Set([...(deny ? DENY_ALL_OUT : []), ...FIXED_DENY_OUT, ...policy.denyOut])];
  const network: WireNetwork = { allowOut: wireAllow(kind, policy.allowOut), denyOut };
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
