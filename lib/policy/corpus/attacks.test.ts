import { beforeAll, describe, expect, it } from 'vitest';
import { createPolicyEngine, type PolicyEngine } from '../engine/engine';
import { presetRules } from '../profiles/presets';
import { ATTACKS } from './attacks';

let engine: PolicyEngine;
beforeAll(async () => {
  engine = await createPolicyEngine();
});

const classes = () => {
  const by = new Map<string, number>();
  for (const a of ATTACKS) by.set(a.cls, (by.get(a.cls) ?? 0) + 1);
  return by;
};

describe('the attack corpus', () => {
  it('has many spellings of every class', () => {
    const by = classes();
    console.log(`attack corpus: ${ATTACKS.length} commands\n${[...by].map(([c, n]) => `  ${c.padEnd(36)} ${n}`).join('\n')}`);
    expect(by.size).toBeGreaterThanOrEqual(12);
    for (const [c, n] of by) expect(n, c).toBeGreaterThanOrEqual(10);
    expect(new Set(ATTACKS.map((a) => `${a.command}|${a.stdin}`)).size).toBe(ATTACKS.length);
  });

  for (const preset of ['balanced', 'locked_down'] as const) {
    it(`is never allowed under ${preset}`, () => {
      const allowed: string[] = [];
      for (const a of ATTACKS) {
        const e = engine.evaluate(a.command, presetRules(preset), { stdin: a.stdin });
        if (e.decision === 'allow') allowed.push(`${a.cls}: ${JSON.stringify(a.command)}${a.stdin ? ' (stdin)' : ''}`);
      }
      expect(allowed).toEqual([]);
    });
  }

  it('a bare interpreter is judged as code only when the exec sends stdin', () => {
    for (const i of ['python3', 'perl', 'node', 'ruby', 'sh', 'bash', 'php']) {
      // A shell with no script reads stdin by definition; an interpreter with none starts a prompt.
      if (i !== 'sh' && i !== 'bash') expect(engine.evaluate(i, presetRules('balanced')).decision, i).toBe('allow');
      expect(engine.evaluate(i, presetRules('balanced'), { stdin: true }), i).toMatchObject({
        decision: 'deny',
        rule: 'interpreter_args',
        ruleId: 'stdin.code',
      });
      expect(engine.evaluate(`${i} script.x`, presetRules('balanced'), { stdin: true }).decision, i).toBe('allow');
    }
  });

  it('denies publishing under every preset but yolo, and names the rule', () => {
    for (const c of ['npm publish', 'twine upload dist/*', 'gem push x.gem', 'cargo publish', 'docker push r/x']) {
      for (const p of ['balanced', 'locked_down'] as const) expect(engine.evaluate(c, presetRules(p)).decision, `${p}: ${c}`).toBe('deny');
      expect(engine.evaluate(c, presetRules('balanced')).ruleId).toBe('data_exfiltration.package_publish');
      expect(engine.evaluate(c, presetRules('yolo')).decision, `yolo: ${c}`).toBe('allow');
    }
  });

  it('refuses /proc environments and other processes’ fds even under yolo', () => {
    for (const c of ['cat /proc/1//environ', 'cd /proc && cat 1/environ', 'grep -r KEY /proc', 'cat /proc/7/fd/0', 'cat /proc/1/task/1/environ'])
      expect(engine.evaluate(c, presetRules('yolo')).rule, c).toMatch(/^always_on:proc_/);
  });
});
