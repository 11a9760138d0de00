// Exec policy decisions over the corpus (lib/policy/corpus/corpus.ts) under `balanced`, beside a bare
// tree-sitter parse of the same commands in the same run: the ratio is what the policy layer
// (normalising, splitting, peeling wrappers, parsing `sh -c` strings again, every rule) costs on
// top of parsing. Rounds alternate between the two sides so machine load hits both alike.
import os from 'node:os';
import { CORPUS, SPOT_CASES } from '../lib/policy/corpus/corpus';
import { createPolicyEngine } from '../lib/policy/engine/engine';
import { presetRules } from '../lib/policy/profiles/presets';
import { createShellParser } from '../lib/policy/shell/parser';
import { fmt, percentile } from './common';

export interface LatencySide {
  calls: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface PolicyBenchResult {
  commands: number;
  rounds: number;
  parse: LatencySide;
  /** A call of about the same length that does no policy work (JSON.parse of the corpus as JSON): what the machine's preemption and GC do to any call that long. */
  control: LatencySide;
  evaluate: LatencySide;
  /** evaluate / parse at p50 and p99; parse / evaluate throughput. */
  ratio: { p50: number; p99: number; throughput: number };
  /**
   * Each command's median over the rounds, then the p99 and max over commands: the cost of the
   * slowest commands with scheduler preemption and GC pauses (which hit a single call) filtered out.
   */
  perCommand: { p99MedianMs: number; maxMedianMs: number; slowest: string };
  /** Decisions that differed from the corpus (must be 0). */
  mismatches: number;
  loadAverage: number[];
}

function side(samples: number[], totalMs: number): LatencySide {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    calls: samples.length,
    perSecond: (samples.length / totalMs) * 1000,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1],
  };
}

export async function policyBench(rounds: number): Promise<PolicyBenchResult> {
  const engine = await createPolicyEngine();
  const parser = await createShellParser();
  const rules = presetRules('balanced');
  const commands = [...CORPUS.map((c) => c.command), ...SPOT_CASES.map((c) => c.command)];
  let mismatches = 0;
  for (const c of CORPUS) {
    const e = engine.evaluate(c.command, rules);
    if (e.decision !== c.decision || e.rule !== c.rule) mismatches++;
  }
  const parseOnce = (cmd: string) => {
    const p = parser.parse(cmd);
    if (p.ok) p.tree.delete();
  };
  for (let i = 0; i < 3; i++) {
    for (const cmd of commands) {
      parseOnce(cmd);
      engine.evaluate(cmd, rules);
    }
  }
  const parseSamples: number[] = [];
  const evalSamples: number[] = [];
  const controlSamples: number[] = [];
  const json = JSON.stringify(CORPUS);
  let parseTotal = 0;
  let evalTotal = 0;
  let controlTotal = 0;
  for (let r = 0; r < rounds; r++) {
    let t0 = performance.now();
    for (let i = 0; i < commands.length; i++) {
      const t = performance.now();
      JSON.parse(json);
      controlSamples.push(performance.now() - t);
    }
    controlTotal += performance.now() - t0;
    t0 = performance.now();
    for (const cmd of commands) {
      const t = performance.now();
      parseOnce(cmd);
      parseSamples.push(performance.now() - t);
    }
    parseTotal += performance.now() - t0;
    t0 = performance.now();
    for (const cmd of commands) {
      const t = performance.now();
      engine.evaluate(cmd, rules);
      evalSamples.push(performance.now() - t);
    }
    evalTotal += performance.now() - t0;
  }
  const parse = side(parseSamples, parseTotal);
  const evaluate = side(evalSamples, evalTotal);
  const control = side(controlSamples, controlTotal);
  // evalSamples holds round after round of the same command order.
  const medians = commands.map((cmd, i) => {
    const mine = Array.from({ length: rounds }, (_, r) => evalSamples[r * commands.length + i]).sort((a, b) => a - b);
    return { cmd, ms: percentile(mine, 50) };
  });
  medians.sort((a, b) => a.ms - b.ms);
  const perCommand = {
    p99MedianMs: percentile(
      medians.map((m) => m.ms),
      99,
    ),
    maxMedianMs: medians[medians.length - 1].ms,
    slowest: medians[medians.length - 1].cmd.slice(0, 60),
  };
  return {
    commands: commands.length,
    rounds,
    parse,
    control,
    evaluate,
    ratio: { p50: evaluate.p50Ms / parse.p50Ms, p99: evaluate.p99Ms / parse.p99Ms, throughput: parse.perSecond / evaluate.perSecond },
    perCommand,
    mismatches,
    loadAverage: os.loadavg().map((x) => Math.round(x * 10) / 10),
  };
}

export function describePolicy(r: PolicyBenchResult): string[] {
  const d = (s: LatencySide) =>
    `${Math.round(s.perSecond).toLocaleString('en')}/s, p50 ${fmt(s.p50Ms, 3)} ms, p99 ${fmt(s.p99Ms, 3)} ms, max ${fmt(s.maxMs, 2)} ms`;
  return [
    `\n== Exec policy decisions: ${r.commands} corpus commands × ${r.rounds} rounds under balanced (in-process, sync after init) ==`,
    `baseline (tree-sitter parse of the same command, tree freed): ${d(r.parse)}`,
    `control (JSON.parse of the ${fmt(JSON.stringify(CORPUS).length / 1024, 0)} KiB corpus JSON, a call about as long as a decision): ${d(r.control)}`,
    `engine.evaluate (normalise, parse, split, unwrap, every rule): ${d(r.evaluate)}; ${r.mismatches} corpus mismatches`,
    `per command (median of its ${r.rounds} rounds): p99 over commands ${fmt(r.perCommand.p99MedianMs, 3)} ms, slowest ${fmt(r.perCommand.maxMedianMs, 3)} ms (${JSON.stringify(r.perCommand.slowest)})`,
    `ratio: p50 ×${fmt(r.ratio.p50, 2)}, p99 ×${fmt(r.ratio.p99, 2)} of a bare parse; p99 ×${fmt(r.evaluate.p99Ms / r.control.p99Ms, 2)} of the control; throughput ×${fmt(1 / r.ratio.throughput, 2)} of it (target p99 ≤ 2 ms: ${r.evaluate.p99Ms <= 2 ? 'met' : 'not met'} per call, ${r.perCommand.p99MedianMs <= 2 ? 'met' : 'not met'} per command; load average ${r.loadAverage.join(' ')})`,
  ];
}
