// What E2B and CubeSandbox cannot enforce of Skilldock's model, said where a person reads a
// decision: the tester's answer carries a caveat when the backend would not decide the same, and
// the console lists each backend's gaps beside the enforcement badge.
import { cidrWithin, inCidr, parseCidr, parseIp, unmap } from './addr';
import type { Destination } from './destination';
import { ALWAYS_BLOCKED_V4, ALWAYS_BLOCKED_V6 } from './ranges';
import type { Decision } from './types';

export type GapBackend = 'docker' | 'e2b' | 'cube';

/** The ranges E2B's egress proxy checks a domain-allowed connection's address against (its own list). */
export const E2B_INTERNAL = [
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
];
/** The ranges Cube denies whatever a policy allows. */
export const CUBE_ALWAYS_DENIED = ['10.0.0.0/8', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.168.0.0/16'];

const parsed = (list: readonly string[]) => list.map((c) => parseCidr(c)!);

/** Always-blocked ranges E2B does not check for a name it allowed by its domain. */
export const E2B_UNCHECKED_FOR_NAMES: string[] = [...ALWAYS_BLOCKED_V4, ...ALWAYS_BLOCKED_V6]
  .map((r) => r.cidr)
  .filter((c) => !parsed(E2B_INTERNAL).some((inner) => cidrWithin(parseCidr(c)!, inner)));

const BY_NAME =
  `A name allowed by a domain entry: E2B checks the address it connects to against its own internal ranges only (${E2B_INTERNAL.join(', ')}), ` +
  `so a name that resolves into ${E2B_UNCHECKED_FOR_NAMES.join(', ')} or into your denyOut is not blocked by E2B.`;
const DNS = (name: string) =>
  `DNS (port 53): ${name} does not keep DNS to a forwarder of its own; DNS to an address the lists allow is allowed${name === 'E2B' ? ' (E2B also allows 8.8.8.8 whenever a domain is listed)' : ''}.`;
const CUBE_FIXED = `Cube denies ${CUBE_ALWAYS_DENIED.join(', ')} whatever the policy says: an allow entry for an address there has no effect on Cube.`;

/** What the backend does not enforce as Skilldock's rules say, one sentence each; none for Docker. */
export function backendGaps(backend: GapBackend): string[] {
  if (backend === 'e2b') return [BY_NAME, DNS('E2B')];
  if (backend === 'cube') return [DNS('Cube'), CUBE_FIXED];
  return [];
}

/** A caveat when the backend would not decide this destination as Skilldock's rules do; null when it would. */
export function backendCaveat(backend: GapBackend, dest: Destination, d: Decision): string | null {
  if (backend === 'docker') return null;
  const name = backend === 'e2b' ? 'E2B' : 'Cube';
  if (d.kind === 'dns') return `${name} does not enforce this rule: ${DNS(name)}`;
  if (backend === 'e2b' && d.allowed && d.kind === 'allow-domain') return `${name} decides this name by its domain entry. ${BY_NAME}`;
  if (backend === 'cube' && d.allowed && dest.kind === 'ip') {
    const a = parseIp(dest.host);
    if (a && parsed(CUBE_ALWAYS_DENIED).some((c) => inCidr(unmap(a), c))) return `Cube blocks this address anyway: ${CUBE_FIXED}`;
  }
  return null;
}
