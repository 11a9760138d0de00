// The rules editor's use of the shared validator: a typed entry is checked in place (as the next
// entry of its list, deny-all assumed so the domain-allowlist rule does not hide its own errors),
// and the whole draft is checked for what depends on the rest (deny-all, backend support).
import type { NetworkPolicy, PolicyIssue } from '@/lib/network/policy/types';
import { policyWarnings, validatePolicy } from '@/lib/network/policy/validate';
import type { SandboxBackend } from '@/lib/sandbox/config/schema';

export type EntryList = 'allowOut' | 'denyOut';

export type EntryCheck = { ok: true; normalised: string } | { ok: false; message: string };

/** One typed entry: its normalised form, or the message of the rule it breaks. */
export function checkEntry(backend: SandboxBackend, list: EntryList, raw: string, draft: NetworkPolicy): EntryCheck {
  const at = `${list}.${draft[list].length}`;
  const inPlace = validatePolicy(backend, { ...draft, denyEgressByDefault: true, [list]: [...draft[list], raw] });
  const own = inPlace.issues.filter((i) => i.path === at);
  if (own.length) return { ok: false, message: own.map((i) => i.message).join(' ') };
  const solo = validatePolicy(backend, { denyEgressByDefault: true, allowOut: [], denyOut: [], [list]: [raw] });
  if (!solo.policy) return { ok: false, message: solo.issues.map((i) => i.message).join(' ') || 'This entry is not valid.' };
  return { ok: true, normalised: solo.policy[list][0] ?? raw.trim() };
}

/** The issues of the whole draft (each names its entry), or, when there are none, its warnings. */
export function draftCheck(backend: SandboxBackend, draft: NetworkPolicy): { issues: PolicyIssue[]; warnings: string[] } {
  const r = validatePolicy(backend, draft);
  return { issues: r.issues, warnings: r.policy ? policyWarnings(r.policy) : [] };
}

/** Whether an allow entry is a name rather than an address or range. */
export const isDomain = (entry: string) => !entry.includes(':') && !/^[\d./]+$/.test(entry);
