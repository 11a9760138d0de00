/** What the API returns for the catalog: summaries for the list, everything for one skill's detail. */
import type { SkillCopy } from '../types';
import type { CatalogSkill, CatalogSnapshot, SkillStatus } from './catalog';
import { sourceLabel } from './roots';

export function copyView(c: SkillCopy) {
  return {
    id: c.id,
    source: c.source,
    sourceLabel: sourceLabel(c.source),
    root: c.root,
    relDir: c.relDir,
    dir: c.dir,
    group: c.group ?? null,
    contentHash: c.contentHash,
    valid: c.parsed.valid,
  };
}

export function summaryView(s: CatalogSkill) {
  const m = s.copy.parsed.manifest;
  return {
    id: s.id,
    name: s.name,
    skillKey: s.skillKey,
    description: m.description,
    emoji: m.emoji ?? null,
    homepage: m.homepage ?? null,
    source: s.copy.source,
    sourceLabel: sourceLabel(s.copy.source),
    group: s.copy.group ?? null,
    dir: s.copy.dir,
    status: s.status,
    eligible: s.gating.eligible,
    disabled: s.gating.disabled,
    reasons: s.gating.reasons,
    missing: s.gating.missing,
    verdict: s.scan.verdict,
    findingCounts: {
      critical: s.scan.findings.filter((f) => f.severity === 'critical').length,
      warn: s.scan.findings.filter((f) => f.severity === 'warn').length,
      info: s.scan.findings.filter((f) => f.severity === 'info').length,
    },
    acknowledged: !!s.ack,
    diagnostics: s.copy.parsed.diagnostics.length,
    shadowedCount: s.shadowed.length,
    contentHash: s.copy.contentHash,
    primaryEnv: m.primaryEnv ?? null,
    userInvocable: m.userInvocable,
    disableModelInvocation: m.disableModelInvocation,
  };
}
export type SkillSummary = ReturnType<typeof summaryView>;

const EMPTY_COUNTS: Record<SkillStatus | 'all', number> = { all: 0, ready: 0, 'needs-setup': 0, disabled: 0, invalid: 0, blocked: 0 };

export function countsOf(skills: CatalogSkill[]) {
  const counts = { ...EMPTY_COUNTS };
  for (const s of skills) {
    counts.all += 1;
    counts[s.status] += 1;
  }
  return counts;
}

export function rootsView(snap: CatalogSnapshot) {
  const winners = new Map<string, number>();
  const copies = new Map<string, number>();
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const s of snap.skills) {
    add(winners, s.copy.root);
    add(copies, s.copy.root);
    for (const c of s.shadowed) add(copies, c.root);
  }
  // `skills`: copies that win; `copies`: every copy found there, shadowed ones included.
  return snap.roots.map((r) => ({
    kind: r.kind,
    label: r.label,
    path: r.path,
    precedence: r.precedence,
    skills: winners.get(r.path) ?? 0,
    copies: copies.get(r.path) ?? 0,
  }));
}
