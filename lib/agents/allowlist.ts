// Which skills an agent may use, from the instance defaults and the agent's own lists. An agent
// without its own list inherits the defaults; absent defaults mean unrestricted; an empty list
// means no skills; a non-empty agent list is the whole set (never merged with the defaults); a deny
// list wins over both. Names are matched as written in SKILL.md `name`, after trimming.

/** null: no list (inherit, or unrestricted for the defaults). */
export type SkillList = readonly string[] | null;

export interface AllowlistInput {
  defaults: SkillList;
  /** The agent's own list; null when it inherits the defaults. */
  agent: SkillList;
  deny?: readonly string[];
}

export type AllowRule =
  | { kind: 'unrestricted' }
  | { kind: 'defaults'; list: string[] }
  | { kind: 'agent'; list: string[] }
  | { kind: 'none'; from: 'defaults' | 'agent' };

export interface Allowlist {
  rule: AllowRule;
  /** Names allowed by the list; null when unrestricted. */
  allowed: ReadonlySet<string> | null;
  denied: ReadonlySet<string>;
}

/** Trims each name, drops empty ones and duplicates, keeps the first-seen order. */
export function normalizeList(list: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of list) {
    const name = raw.trim();
    if (!name || seen.has(name)) continue;
    seen.add(name);
    out.push(name);
  }
  return out;
}

export function effectiveAllowlist(input: AllowlistInput): Allowlist {
  const denied = new Set(normalizeList(input.deny ?? []));
  const own = input.agent === null ? null : normalizeList(input.agent);
  const defaults = input.defaults === null ? null : normalizeList(input.defaults);
  let rule: AllowRule;
  if (own !== null) rule = own.length ? { kind: 'agent', list: own } : { kind: 'none', from: 'agent' };
  else if (defaults !== null) rule = defaults.length ? { kind: 'defaults', list: defaults } : { kind: 'none', from: 'defaults' };
  else rule = { kind: 'unrestricted' };
  const allowed = rule.kind === 'unrestricted' ? null : new Set(rule.kind === 'none' ? [] : rule.list);
  return { rule, allowed, denied };
}

export type AllowDecision = { allowed: true; why: string } | { allowed: false; why: string; by: 'deny' | 'list' | 'none' };

/** Whether a skill of this name passes the list, and the rule that says so, in words. */
export function decide(list: Allowlist, name: string): AllowDecision {
  if (list.denied.has(name)) return { allowed: false, by: 'deny', why: `"${name}" is on the agent's deny list, which wins over any allowlist` };
  const r = list.rule;
  switch (r.kind) {
    case 'unrestricted':
      return { allowed: true, why: 'neither the agent nor the defaults restrict skills' };
    case 'none':
      return {
        allowed: false,
        by: 'none',
        why: r.from === 'agent' ? "the agent's own list is empty: no skills" : 'the defaults list is empty and the agent inherits it: no skills',
      };
    case 'agent':
      return list.allowed?.has(name)
        ? { allowed: true, why: `"${name}" is on the agent's own list` }
        : { allowed: false, by: 'list', why: `"${name}" is not on the agent's own list (it replaces the defaults)` };
    case 'defaults':
      return list.allowed?.has(name)
        ? { allowed: true, why: `"${name}" is on the defaults list the agent inherits` }
        : { allowed: false, by: 'list', why: `"${name}" is not on the defaults list the agent inherits` };
  }
}

/** Names a list mentions that no known skill has: kept, and shown as warnings. */
export function unknownNames(list: Allowlist, deny: readonly string[], known: ReadonlySet<string>): string[] {
  const named = [...(list.rule.kind === 'agent' || list.rule.kind === 'defaults' ? list.rule.list : []), ...normalizeList(deny)];
  return [...new Set(named.filter((n) => !known.has(n)))].sort();
}
