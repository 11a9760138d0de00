// The exec policy against evidence: the share of the commands real skills document that each
// preset allows, the share of the generated attack corpus decided `allow` (must be 0), and the
// time per evaluation against a bare tree-sitter parse of the same commands in the same run.
import { ATTACKS } from '../lib/policy/corpus/attacks';
import { SKILL_COMMANDS } from '../lib/policy/corpus/skills';
import { createPolicyEngine } from '../lib/policy/engine/engine';
import { presetRules } from '../lib/policy/profiles/presets';
import { createShellParser } from '../lib/policy/shell/parser';
import { PRESETS, type PresetName } from '../lib/policy/types';
import { fmt, percentile } from './common';

export interface PolicyCorpusResult {
  legit: { commands: number; allowedShare: Record<PresetName, number> };
  attacks: { commands: number; allowedShare: Record<'balanced' | 'locked_down', number>; allowedBalanced: string[] };
  rounds: number;
  /** Per-call times over every command of both corpora, under balanced. */
  evaluate: { p50Ms: number; p99Ms: number };
  parse: { p50Ms: number; p99Ms: number };
  ratio: { p50: number; p99: number };
}

export async function policyCorpusBench(rounds: number): Promise<PolicyCorpusResult> {
  const engine = await createPolicyEngine();
  const parser = await createShellParser();
  const share = (n: number, of: number) => (of ? n / of : 0);
  const allowedShare = {} as Record<PresetName, number>;
  for (const p of PRESETS) {
    const rules = presetRules(p);
    allowedShare[p] = share(SKILL_COMMANDS.filter((c) => engine.evaluate(c.command, rules).decision === 'allow').length, SKILL_COMMANDS.length);
  }
  const attackAllowed = (p: 'balanced' | 'locked_down') =>
    ATTACKS.filter((a) => engine.evaluate(a.command, presetRules(p), { stdin: a.stdin }).decision === 'allow').map((a) => a.command);
  const allowedBalanced = attackAllowed('balanced');
  const attacks = {
    commands: ATTACKS.length,
    allowedShare: { balanced: share(allowedBalanced.length, ATTACKS.length), locked_down: share(attackAllowed('locked_down').length, ATTACKS.length) },
    allowedBalanced,
  };
  const commands = [...SKILL_COMMANDS.map((c) => c.command), ...ATTACKS.map((a) => a.command)];
  const rules = presetRules('balanced');
  const ev: number[] = [];
  const pa: number[] = [];
  for (let r = 0; r < rounds + 2; r++) {
    // Alternating sides per round so machine load hits both alike; the first two rounds warm up.
    for (const cmd of commands) {
      const t0 = performance.now();
      const p = parser.parse(cmd);
      if (p.ok) p.tree.delete();
      const t1 = performance.now();
      engine.evaluate(cmd, rules);
      const t2 = performance.now();
      if (r >= 2) {
        pa.push(t1 - t0);
        ev.push(t2 - t1);
      }
    }
  }
  ev.sort((a, b) => a - b);
  pa.sort((a, b) => a - b);
  const evaluate = { p50Ms: percentile(ev, 50), p99Ms: percentile(ev, 99) };
  const parse = { p50Ms: percentile(pa, 50), p99Ms: percentile(pa, 99) };
  return {
    legit: { commands: SKILL_COMMANDS.length, allowedShare },
    attacks,
    rounds,
    evaluate,
    parse,
    ratio: { p50: evaluate.p50Ms / parse.p50Ms, p99: evaluate.p99Ms / parse.p99Ms },
  };
}

export function describePolicyCorpus(r: PolicyCorpusResult): string[] {
  const pct = (x: number) => `${fmt(x * 100, 1)}%`;
  return [
    `legitimate corpus (${r.legit.commands} commands from real skills) allowed: ${PRESETS.map((p) => `${p} ${pct(r.legit.allowedShare[p])}`).join(', ')} (target: balanced ≥ 95%)`,
    `attack corpus (${r.attacks.commands} generated commands) decided allow: balanced ${pct(r.attacks.allowedShare.balanced)}, locked_down ${pct(r.attacks.allowedShare.locked_down)} (target 0)${r.attacks.allowedBalanced.length ? `; allowed: ${r.attacks.allowedBalanced.slice(0, 5).join(' | ')}` : ''}`,
    `evaluate (balanced): p50 ${fmt(r.evaluate.p50Ms * 1000, 0)} µs, p99 ${fmt(r.evaluate.p99Ms * 1000, 0)} µs; bare tree-sitter parse: p50 ${fmt(r.parse.p50Ms * 1000, 0)} µs, p99 ${fmt(r.parse.p99Ms * 1000, 0)} µs`,
    `ratio: evaluate/parse p50 ×${fmt(r.ratio.p50, 2)}, p99 ×${fmt(r.ratio.p99, 2)} (${r.rounds} rounds)`,
  ];
}
