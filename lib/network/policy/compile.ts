// The policy split by family and kind: what the firewall, the proxy and the DNS forwarder consume.
import { classifyEntry, DENY_ALL_V4, DENY_ALL_V6 } from './entry';
import type { CompiledPolicy, NetworkPolicy } from './types';

/** Splits a (validated) policy; entries that do not classify are left out rather than guessed. */
export function compilePolicy(p: NetworkPolicy): CompiledPolicy {
  const c: CompiledPolicy = { denyEgressByDefault: p.denyEgressByDefault, allow4: [], allow6: [], deny4: [], deny6: [], domains: [], wildcards: [] };
  const add = (list: string[], v: string) => {
    if (!list.includes(v)) list.push(v);
  };
  for (const raw of p.allowOut) {
    const e = classifyEntry(raw);
    if (!e.ok) continue;
    if (e.kind === 'cidr') add(e.family === 4 ? c.allow4 : c.allow6, e.value);
    else if (e.wildcard) add(c.wildcards, e.value.slice(2));
    else add(c.domains, e.value);
  }
  for (const raw of p.denyOut) {
    const e = classifyEntry(raw);
    if (e.ok && e.kind === 'cidr') add(e.family === 4 ? c.deny4 : c.deny6, e.value);
  }
  return c;
}

export const hasDomainRules = (c: CompiledPolicy): boolean => c.domains.length > 0 || c.wildcards.length > 0;

/** Default deny: the switch, or 0.0.0.0/0 or ::/0 in denyOut (either one denies both families by default). */
export const isDenyAll = (c: CompiledPolicy): boolean => c.denyEgressByDefault || c.deny4.includes(DENY_ALL_V4) || c.deny6.includes(DENY_ALL_V6);
