import { beforeAll, describe, expect, it } from 'vitest';
import { createPolicyEngine, type PolicyEngine } from '../engine/engine';
import { presetRules } from '../profiles/presets';
import { DENY_GROUPS } from '../types';
import { CORPUS, SPOT_CASES, STATE_CASES } from './corpus';

let engine: PolicyEngine;
beforeAll(async () => {
  engine = await createPolicyEngine();
});

const shape = (e: { decision: string; rule: string; ruleId?: string }, withId: boolean) => ({
  decision: e.decision,
  rule: e.rule,
  ...(withId ? { ruleId: e.ruleId } : {}),
});

describe('the exec policy corpus', () => {
  it('holds at least 150 distinct commands, ordinary ones and every deny group among them', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(CORPUS.map((c) => c.command)).size).toBe(CORPUS.length);
    expect(CORPUS.filter((c) => c.decision === 'allow').length).toBeGreaterThanOrEqual(40);
    const groups = new Set(CORPUS.filter((c) => c.rule.startsWith('deny_group:')).map((c) => c.rule.slice('deny_group:'.length)));
    expect([...groups].sort()).toEqual([...DENY_GROUPS].sort());
  });

  it.each(CORPUS.map((c) => [c.command, c] as const))('balanced: %j', (_, c) => {
    const e = engine.evaluate(c.command, presetRules('balanced'));
    expect(shape(e, !!c.ruleId)).toEqual(shape(c, !!c.ruleId));
    // The deciding segment is named and carries the same rule (a whole-command refusal has none).
    if (e.decision !== 'allow' && e.segments.length) {
      const s = e.segments.find((x) => x.text === e.segment && x.rule === e.rule);
      expect(s, JSON.stringify(e.segments)).toBeDefined();
    }
    for (const s of e.segments) expect(s.reason.length).toBeGreaterThan(0);
  });

  it.each([...SPOT_CASES, ...STATE_CASES].map((c) => [`${c.preset}: ${c.command}`, c] as const))('%s', (_, c) => {
    const rules = { ...presetRules(c.preset), ...(c.inlineCode ? { inlineCode: c.inlineCode } : {}) };
    const e = engine.evaluate(c.command, rules, {
      cwd: c.cwd,
      home: c.home,
      stdin: c.stdin,
      writtenFiles: c.writtenFiles && new Set(c.writtenFiles),
      scannedClean: c.scannedClean && new Set(c.scannedClean),
    });
    expect(shape(e, !!c.ruleId)).toEqual(shape(c, !!c.ruleId));
  });

  it('a file written earlier in the same command line counts as written in this session', () => {
    const r = { ...presetRules('balanced'), preChecks: false };
    expect(engine.evaluate('echo id > x.sh; sh x.sh', r)).toMatchObject({ decision: 'approval', rule: 'write_then_run', segment: 'sh x.sh' });
    expect(engine.evaluate('echo id | tee t.sh && bash ./t.sh', r)).toMatchObject({ decision: 'approval', rule: 'write_then_run' });
    expect(engine.evaluate('echo id > x.sh; sh y.sh', r).decision).toBe('allow');
    expect(engine.evaluate('echo id > x.sh; . ./x.sh', r)).toMatchObject({ decision: 'approval', rule: 'write_then_run', segment: '. ./x.sh' });
    expect(engine.evaluate('echo id > x.sh && source x.sh', r)).toMatchObject({ decision: 'approval', rule: 'write_then_run' });
    expect(engine.evaluate('cd $X && cat a', { ...presetRules('balanced'), preChecks: false, forbiddenPaths: ['/etc'] })).toMatchObject({
      rule: 'forbidden_path',
    });
  });

  it('decides each command the same every time (no state leaks between evaluations)', () => {
    const rules = presetRules('balanced');
    const first = CORPUS.map((c) => engine.evaluate(c.command, rules));
    const again = [...CORPUS].reverse().map((c) => engine.evaluate(c.command, rules));
    expect(again.reverse()).toEqual(first);
  });

  it('denies nothing of the corpus under yolo but the always-on rules', () => {
    const always = new Set([
      'unparseable',
      'control_char',
      'nul_byte',
      'normalization',
      'too_deep',
      'dynamic_command',
      'wrapper_options',
      'always_on:docker_socket',
      'always_on:proc_environ',
    ]);
    for (const c of CORPUS) {
      const e = engine.evaluate(c.command, presetRules('yolo'));
      if (e.decision !== 'allow') expect(always.has(e.rule), `${c.command} → ${e.rule}`).toBe(true);
    }
  });

  it('is at least as strict under locked_down as under balanced', () => {
    const rank = { allow: 0, approval: 1, deny: 2 } as const;
    for (const c of CORPUS) {
      const b = engine.evaluate(c.command, presetRules('balanced'));
      const l = engine.evaluate(c.command, presetRules('locked_down'), { home: '/workspace/home' });
      expect(rank[l.decision], `${c.command}: balanced ${b.decision}/${b.rule}, locked_down ${l.decision}/${l.rule}`).toBeGreaterThanOrEqual(rank[b.decision]);
    }
  });
});
