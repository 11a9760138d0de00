// The one validator of a network policy: the API, the server action and the console's form (as you
// type) all run it, so every door reports the same issues. Structure first (schema.ts), then the
// rules about each entry and about what each backend can enforce.
import { blockedRangeContaining, blockedRangesInside, parseCidr } from './addr';
import { classifyEntry, DENY_ALL_V4, DENY_ALL_V6, deniesAll } from './entry';
import { networkPolicySchema } from './schema';
import type { NetworkPolicy, PolicyIssue } from './types';
import { checkCubeRules, checkE2bHostRules } from './validate-l7';

export type PolicyBackend = 'docker' | 'e2b' | 'cube';

const BACKEND_NAME: Record<PolicyBackend, string> = { docker: 'Docker', e2b: 'E2B', cube: 'Cube' };

export { DENY_ALL_V4, DENY_ALL_V6 };

const shown = (raw: string) => JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw);
/** An entry as a person names it: "Allow entry 3" (the path stays `allowOut.2` for forms). */
const entryName = (list: 'allowOut' | 'denyOut', i: number) => `${list === 'allowOut' ? 'Allow' : 'Deny'} entry ${i + 1}`;

function checkList(list: 'allowOut' | 'denyOut', entries: string[], backend: PolicyBackend, issues: PolicyIssue[]): { values: string[]; domains: number[] } {
  const seen = new Map<string, number>();
  const values: string[] = [];
  const domains: number[] = [];
  entries.forEach((raw, i) => {
    const at = (reason: string) => issues.push({ path: `${list}.${i}`, message: `${entryName(list, i)} ${shown(raw)}: ${reason}.` });
    const e = classifyEntry(raw);
    if (!e.ok) return at(e.reason);
    values.push(e.value);
    if (e.kind === 'domain') {
      if (list === 'denyOut')
        return at('denyOut takes IP addresses and CIDRs only (blocking matches the destination IP); to limit domains, deny all and allow the domains');
      if (backend === 'cube') return at('Cube enforces CIDRs only; a domain cannot be allowed on a Cube config');
      domains.push(i);
    } else if (list === 'allowOut') {
      const blocked = blockedRangeContaining(e.cidr);
      if (blocked) return at(`${e.value} lies in ${blocked.cidr}, which is always blocked (${blocked.why}); no policy can open it`);
    }
    const earlier = seen.get(e.value);
    if (earlier !== undefined) return at(`a duplicate of ${entryName(list, earlier)} (both are ${e.value} once normalised)`);
    seen.set(e.value, i);
  });
  return { values, domains };
}

/** Validates and normalises a policy for a backend; the policy is returned only when there are no issues. */
export function validatePolicy(backend: PolicyBackend, input: unknown): { policy: NetworkPolicy | null; issues: PolicyIssue[] } {
  const parsed = networkPolicySchema.safeParse(input);
  if (!parsed.success) {
    return { policy: null, issues: parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.') || 'policy', message: i.message })) };
  }
  const p = parsed.data;
  const issues: PolicyIssue[] = [];
  const allow = checkList('allowOut', p.allowOut, backend, issues);
  const deny = checkList('denyOut', p.denyOut, backend, issues);
  const denyAll = p.denyEgressByDefault || deniesAll(deny.values);
  if (allow.domains.length > 0 && !denyAll) {
    const i = allow.domains[0];
    issues.push({
      path: 'denyEgressByDefault',
      message: `${entryName('allowOut', i)} ${shown(p.allowOut[i])} is a domain, and a domain allowlist needs deny-all: turn on "deny by default" or add 0.0.0.0/0 (or ::/0) to the deny list.`,
    });
  }
  if (p.cubeRules.length > 0 && backend !== 'cube') {
    issues.push({
      path: 'cubeRules',
      message: `cubeRules are L7 rules of CubeSandbox; a ${BACKEND_NAME[backend]} config cannot take them (only Cube configs have them).`,
    });
  }
  if (p.e2bHostRules.length > 0 && backend !== 'e2b') {
    issues.push({
      path: 'e2bHostRules',
      message: `e2bHostRules are header injection rules of E2B; a ${BACKEND_NAME[backend]} config cannot take them (only E2B configs have them).`,
    });
  }
  const cubeRules = backend === 'cube' ? checkCubeRules(p.cubeRules, issues) : [];
  const allowDomains = allow.values.filter((v) => !parseCidr(v));
  const e2bHostRules = backend === 'e2b' ? checkE2bHostRules(p.e2bHostRules, allowDomains, issues) : [];
  if (issues.length > 0) return { policy: null, issues: sortIssues(issues) };
  return { policy: { denyEgressByDefault: p.denyEgressByDefault, allowOut: allow.values, denyOut: deny.values, cubeRules, e2bHostRules }, issues: [] };
}

const FIELD_ORDER = ['denyEgressByDefault', 'allowOut', 'denyOut', 'cubeRules', 'e2bHostRules'];

/** Issues in the order of the form: by field, then by index inside each list. */
function sortIssues(issues: PolicyIssue[]): PolicyIssue[] {
  const key = (path: string) => {
    const [field, index] = path.split('.');
    return [FIELD_ORDER.indexOf(field), index === undefined ? -1 : Number(index) || 0];
  };
  return issues
    .map((issue, n) => ({ issue, n, k: key(issue.path) }))
    .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.n - b.n)
    .map((x) => x.issue);
}

/** Things worth saying about a valid policy that are not errors. */
export function policyWarnings(policy: NetworkPolicy): string[] {
  const out: string[] = [];
  for (const v of policy.allowOut) {
    const c = parseCidr(v);
    if (!c) continue;
    const inside = blockedRangesInside(c);
    if (inside.length === 1) out.push(`allowOut "${v}" includes ${inside[0].cidr} (${inside[0].why}), which stays blocked.`);
    else if (inside.length > 1) out.push(`allowOut "${v}" includes always-blocked ranges (${inside.map((r) => r.cidr).join(', ')}), which stay blocked.`);
  }
  const denyAll = policy.denyEgressByDefault || deniesAll(policy.denyOut);
  if (!denyAll && policy.allowOut.some((v) => !parseCidr(v))) out.push('A domain allowlist without deny-all allows every other destination too.');
  if (denyAll && policy.allowOut.length === 0) out.push('Nothing is allowed: every outbound connection is refused, including package installs.');
  if (!policy.denyEgressByDefault) {
    if (policy.denyOut.includes(DENY_ALL_V4)) out.push('0.0.0.0/0 in denyOut denies everything by default, IPv6 included.');
    else if (policy.denyOut.includes(DENY_ALL_V6)) out.push('::/0 in denyOut denies everything by default, IPv4 included.');
  }
  return out;
}
