// The judges one network's proxy and DNS forwarder ask, reading the network's policy at each call
// so a swapped policy is in force at once (and an open tunnel's recheck sees the new one).
import type { DnsJudge } from '../dns/forwarder';
import { isDenyAll } from '../policy/compile';
import { decideName, decideResolved, nameAllowed } from '../policy/decide';
import type { CompiledPolicy, Decision } from '../policy/types';
import type { EgressJudge } from '../proxy/egress-proxy';

const NO_POLICY: Decision = { allowed: false, kind: 'default-deny', rule: 'This network has no policy.' };

export function policyJudges(
  policy: () => CompiledPolicy | undefined,
  onDecision?: (host: string, port: number, decision: Decision) => void,
): { egress: EgressJudge; dns: DnsJudge } {
  return {
    egress: {
      name: (host, port) => {
        const p = policy();
        return p ? decideName(p, host, port) : NO_POLICY;
      },
      resolved: (host, port, addresses) => {
        const p = policy();
        const d = p ? decideResolved(p, host, port, addresses) : NO_POLICY;
        onDecision?.(host, port, d);
        return d;
      },
    },
    dns: {
      allowName: (name) => {
        const p = policy();
        if (!p) return false;
        return !isDenyAll(p) || nameAllowed(p, name) !== null;
      },
    },
  };
}
