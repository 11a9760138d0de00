// Drift: what the gateway itself says each linked agent sees, against what Skilldock decided. A
// difference names both sides' reasons. Only what Skilldock controls is compared: the allowlist and
// the entry's enabled flag for every skill, and for the skills Skilldock manages or configures also
// whether the gateway can use them (its missing bins, env, config). Pending config or folder
// changes (a hand edit of the gateway's config shows here) count as drift too.
import type { StoredDrift } from '@/db/schema';
import type { GatewayAgentSkills, GatewaySkillStatus } from './access';
import type { Desired } from './desired';
import type { SyncPlan } from './openclaw/plan';

type Difference = StoredDrift['agents'][number]['differences'][number];

function theirsWhy(s: GatewaySkillStatus | undefined): { allowed: boolean; usable: boolean; why: string } {
  if (!s) return { allowed: false, usable: false, why: 'the gateway does not list this skill' };
  if (s.disabled) return { allowed: false, usable: false, why: 'disabled in skills.entries' };
  if (s.blockedByAgentFilter) return { allowed: false, usable: false, why: "not in the agent's skills list" };
  if (s.blockedByAllowlist) return { allowed: false, usable: false, why: 'not in skills.allowBundled' };
  const m = s.missing;
  const missing = [
    ...m.bins.map((b) => `bin ${b}`),
    ...(m.anyBins.length ? [`one of ${m.anyBins.join('/')}`] : []),
    ...m.env.map((e) => `env ${e}`),
    ...m.config.map((c) => `config ${c}`),
    ...m.os.map((o) => `os ${o}`),
  ];
  if (!s.eligible || !s.modelVisible)
    return { allowed: true, usable: false, why: missing.length ? `missing ${missing.join(', ')}` : 'not visible to the model' };
  return { allowed: true, usable: true, why: `visible (${s.source})` };
}

function oursWhy(name: string, list: string[] | null, own: boolean, entryEnabled: boolean | null | undefined) {
  if (entryEnabled === false) return { allowed: false, why: 'disabled by its entry in Skilldock' };
  if (list === null) return { allowed: true, why: 'allowed: no list restricts it' };
  return list.includes(name)
    ? { allowed: true, why: own ? "in the agent's own list" : 'in the defaults list' }
    : { allowed: false, why: own ? "not in the agent's own list" : 'not in the defaults list' };
}

export function computeDrift(desired: Desired, plan: SyncPlan | null, answers: GatewayAgentSkills[], checkedAt = new Date()): StoredDrift {
  const pending = plan ? [...plan.configChanges, ...plan.folders.map((f) => `${f.op} skill ${f.name} (${f.why})`)] : [];
  const agents: StoredDrift['agents'] = [];
  for (const ans of answers) {
    const a = desired.agents.find((x) => x.id === ans.agentId);
    if (!a?.exists) continue;
    const list = a.skills ?? desired.defaults;
    const byName = new Map(ans.skills.map((s) => [s.name, s]));
    const names = new Set([...byName.keys(), ...desired.skills.keys()]);
    const differences: Difference[] = [];
    for (const name of [...names].sort()) {
      const ours = oursWhy(name, list, a.skills !== null, desired.entries.get(name)?.enabled);
      const theirs = theirsWhy(byName.get(name));
      const managed = desired.skills.has(name) || desired.entries.has(name);
      // Skilldock wants a managed skill usable where it allows it; for the rest only the allowlist is compared.
      const oursVisible = ours.allowed;
      const theirsVisible = managed ? theirs.usable : theirs.allowed;
      if (!byName.has(name) && !ours.allowed) continue;
      if (oursVisible !== theirsVisible)
        differences.push({ skill: name, ours: { visible: oursVisible, why: ours.why }, theirs: { visible: theirsVisible, why: theirs.why } });
    }
    agents.push({ agentId: ans.agentId, inSync: differences.length === 0, differences });
  }
  const count = pending.length + agents.reduce((n, a) => n + a.differences.length, 0);
  return { checkedAt: checkedAt.toISOString(), count, pending, agents };
}
