import { beforeAll, describe, expect, it } from 'vitest';
import { presetRules } from '../profiles/presets';
import { profileRulesSchema } from '../types';
import { createPolicyEngine, MAX_SEGMENTS, type PolicyEngine } from './engine';

let engine: PolicyEngine;
beforeAll(async () => {
  engine = await createPolicyEngine();
});
const rules = (r: object = {}) => profileRulesSchema.parse(r);

describe('evaluate', () => {
  it('names the deciding rule, segment and reason, and judges every segment', () => {
    const e = engine.evaluate('ls -la && env sudo id | sort', rules());
    expect(e).toMatchObject({ decision: 'deny', rule: 'deny_group:privilege_escalation', ruleId: 'privilege_escalation.sudo', segment: 'env sudo id' });
    expect(e.segments.map((s) => [s.argv[0], s.decision, s.wrappers])).toEqual([
      ['ls', 'allow', []],
      ['id', 'deny', ['env', 'sudo']],
      ['sort', 'allow', []],
    ]);
    expect(e.segments[1]).toMatchObject({ risk: 'high', text: 'env sudo id' });
  });

  it('the first deny wins over an earlier approval; approval over allow', () => {
    expect(engine.evaluate('pip install -r r.txt; sudo id', rules())).toMatchObject({ decision: 'deny', rule: 'deny_group:privilege_escalation' });
    expect(engine.evaluate('ls; pip install -r r.txt', rules())).toMatchObject({
      decision: 'approval',
      rule: 'deny_group:package_install',
      segment: 'pip install -r r.txt',
    });
  });

  it('records leading assignments by name', () => {
    const e = engine.evaluate('A=1 B=2 python3 x.py', rules());
    expect(e.segments[0].assignments).toEqual(['A', 'B']);
  });

  it('a high-risk command runs only when listed by name', () => {
    expect(engine.evaluate('rm /srv/x', rules())).toMatchObject({ decision: 'deny', rule: 'high_risk' });
    expect(engine.evaluate('rm /srv/x', rules({ allowedCommands: ['*', 'rm'] })).decision).toBe('allow');
    expect(engine.evaluate('rm /srv/x', rules({ blockHighRisk: false })).decision).toBe('allow');
    // The agent's own files: a plain relative path is a file change (medium), not a high-risk rm.
    expect(engine.evaluate('rm notes.txt', rules()).decision).toBe('allow');
    expect(engine.evaluate('rm notes.txt', rules({ approvalForMedium: true }))).toMatchObject({ decision: 'approval', rule: 'medium_risk' });
    expect(engine.evaluate('env sudo ls', rules({ allowedCommands: ['*', 'ls'], denyGroups: { privilege_escalation: 'off' } }))).toMatchObject({
      rule: 'high_risk',
    });
  });

  it('a launcher that is not unwrapped runs only when listed by name, and is judged as itself then', () => {
    expect(engine.evaluate('strace -f ls', rules())).toMatchObject({ decision: 'deny', rule: 'launcher' });
    expect(engine.evaluate('strace -f ls', rules({ allowedCommands: ['*', 'strace'] })).decision).toBe('allow');
    expect(engine.evaluate('strace -f ls', rules({ blockInterpreterArgs: false })).decision).toBe('allow');
    // An unwrapped launcher is a wrapper: a strict list names it and the command it runs.
    expect(engine.evaluate('flock /tmp/l ls', rules({ allowedCommands: ['ls'] }))).toMatchObject({ rule: 'allowlist' });
    expect(engine.evaluate('flock /tmp/l ls', rules({ allowedCommands: ['ls', 'flock'] })).decision).toBe('allow');
    const coproc = engine.evaluate('coproc ls', rules({ preChecks: false }));
    expect(coproc.decision).toBe('allow');
    expect(coproc.segments[0]).toMatchObject({ argv: ['ls'], wrappers: ['coproc'] });
  });

  it('a strict allowlist needs every segment and every wrapper listed', () => {
    const r = rules({ allowedCommands: ['ls', 'sort'] });
    expect(engine.evaluate('ls | sort', r).decision).toBe('allow');
    expect(engine.evaluate('ls | uniq', r)).toMatchObject({ decision: 'deny', rule: 'allowlist', segment: 'uniq' });
    expect(engine.evaluate('nice ls', r)).toMatchObject({ decision: 'deny', rule: 'allowlist' });
    expect(engine.evaluate('nice ls', rules({ allowedCommands: ['ls', 'nice'] })).decision).toBe('allow');
  });

  it('turning groups and checks off and on changes the decision', () => {
    expect(engine.evaluate('sudo ls', rules({ denyGroups: { privilege_escalation: 'approval' } }))).toMatchObject({ decision: 'deny', rule: 'high_risk' });
    expect(engine.evaluate('sudo ls', rules({ blockHighRisk: false, denyGroups: { privilege_escalation: 'approval' } }))).toMatchObject({
      decision: 'approval',
    });
    expect(engine.evaluate('python3 -c 1', rules({ blockInterpreterArgs: false })).decision).toBe('allow');
    expect(engine.evaluate('echo x > f', rules({ preChecks: false })).decision).toBe('allow');
    expect(engine.evaluate('git commit -m x', rules({ approvalForMedium: true }))).toMatchObject({ decision: 'approval', rule: 'medium_risk' });
    // With the package group off, the interpreter-argument table still blocks an install it cannot vet.
    expect(engine.evaluate('pip install -r r.txt', rules({ denyGroups: { package_install: 'off' } }))).toMatchObject({
      decision: 'deny',
      rule: 'interpreter_args',
    });
    expect(engine.evaluate('pip install -r r.txt', rules({ denyGroups: { package_install: 'off' }, blockInterpreterArgs: false })).decision).toBe('allow');
    // A named registry package is a medium-risk change: asked for only when medium risk is.
    expect(engine.evaluate('pip install x', rules()).decision).toBe('allow');
    expect(engine.evaluate('pip install x', rules({ approvalForMedium: true }))).toMatchObject({ decision: 'approval', rule: 'medium_risk' });
    expect(engine.evaluate('echo x > out.txt', rules({ approvalForMedium: true }))).toMatchObject({ decision: 'approval', rule: 'medium_risk' });
    expect(engine.evaluate('echo x > /dev/null', rules({ approvalForMedium: true })).decision).toBe('allow');
  });

  it('still finds what find -exec runs when the interpreter-argument table is off', () => {
    expect(engine.evaluate('find . -exec sudo rm {} \\;', rules({ blockInterpreterArgs: false }))).toMatchObject({ rule: 'deny_group:privilege_escalation' });
  });

  it('write-then-run: approval, or a clean scan, or nothing when off', () => {
    const ctx = { cwd: '/workspace', writtenFiles: new Set(['/workspace/gen.py']), scannedClean: new Set<string>() };
    expect(engine.evaluate('python3 gen.py', rules(), ctx)).toMatchObject({ decision: 'approval', rule: 'write_then_run' });
    expect(engine.evaluate('python3 ./gen.py', rules({ writeThenRun: 'scan' }), ctx)).toMatchObject({ decision: 'deny', rule: 'write_then_run' });
    expect(engine.evaluate('python3 gen.py', rules({ writeThenRun: 'scan' }), { ...ctx, scannedClean: new Set(['/workspace/gen.py']) }).decision).toBe('allow');
    expect(engine.evaluate('python3 gen.py', rules({ writeThenRun: 'off' }), ctx).decision).toBe('allow');
    expect(engine.evaluate('/workspace/gen.py', rules(), ctx).rule).toBe('write_then_run');
    expect(engine.evaluate('python3 ../workspace/x/../gen.py', rules(), ctx).rule).toBe('write_then_run');
    expect(engine.evaluate('python3 ~/gen.py', rules(), { ...ctx, home: '/workspace' }).rule).toBe('write_then_run');
    // A relative cwd is read against the workspace root.
    expect(engine.evaluate('python3 gen.py', rules(), { ...ctx, cwd: '.' }).rule).toBe('write_then_run');
  });

  it('refuses whole commands it cannot judge, under every preset', () => {
    for (const p of ['balanced', 'yolo', 'locked_down'] as const) {
      expect(engine.evaluate('echo "x', presetRules(p))).toMatchObject({ decision: 'deny', rule: 'unparseable', segment: '' });
      expect(engine.evaluate('x'.repeat(64 * 1024 + 1), presetRules(p)).rule).toBe('too_long');
      expect(engine.evaluate('ls\0', presetRules(p)).rule).toBe('nul_byte');
    }
    const many = Array.from({ length: MAX_SEGMENTS + 1 }, () => 'ls').join('; ');
    expect(engine.evaluate(many, rules())).toMatchObject({ decision: 'deny', rule: 'too_deep' });
    expect(engine.evaluate(')'.repeat(20_000), rules()).rule).toBe('unparseable');
  });

  it('an empty command is allowed (it runs nothing)', () => {
    expect(engine.evaluate('  \n', rules())).toMatchObject({ decision: 'allow', segments: [] });
  });
});

describe('tree', () => {
  it('shows the named nodes of the parse', () => {
    const t = engine.tree('ls -la | sort');
    expect(t.type).toBe('program');
    expect(t.children[0].type).toBe('pipeline');
    expect(t.children[0].children.map((c) => c.type)).toEqual(['command', 'command']);
    expect(t.children[0].children[0].children[0]).toMatchObject({ type: 'command_name', text: 'ls' });
  });

  it('shows errors, and stays bounded for huge input', () => {
    const bad = engine.tree('ls )');
    expect(JSON.stringify(bad)).toContain('ERROR');
    const big = engine.tree(Array.from({ length: 3000 }, (_, i) => `echo ${i}`).join('\n'));
    let count = 0;
    const walk = (n: { children: unknown[] }) => {
      count++;
      for (const c of n.children as { children: unknown[] }[]) walk(c);
    };
    walk(big);
    expect(count).toBeLessThanOrEqual(2002);
    expect(engine.tree('x'.repeat(70_000)).type).toBe('too_long');
  });
});

describe('robustness', () => {
  it('never throws on random shell-ish input, and refuses what it cannot parse', () => {
    // A fixed-seed generator (mulberry32), so a failure is reproducible.
    let seed = 0x5eed;
    const rand = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const atoms = [
      'ls',
      'sudo',
      'sh',
      '-c',
      'env',
      'A=1',
      '"',
      "'",
      '$',
      '$(',
      ')',
      '`',
      '(',
      '{',
      '}',
      '|',
      '||',
      '&&',
      ';',
      '&',
      '<<',
      'EOF',
      '\n',
      '>',
      '<',
      '2>&1',
      '\\',
      "$'\\x41'",
      'ｓ',
      '\u200b',
      '*',
      '~',
      '..',
      '/etc',
      ' ',
      ' ',
      ' ',
    ];
    const rules = presetRules('balanced');
    for (let i = 0; i < 1500; i++) {
      const n = 1 + Math.floor(rand() * 14);
      const cmd = Array.from({ length: n }, () => atoms[Math.floor(rand() * atoms.length)]).join('');
      const e = engine.evaluate(cmd, rules);
      expect(['allow', 'deny', 'approval']).toContain(e.decision);
      expect(e.rule.length).toBeGreaterThan(0);
      const t = JSON.stringify(engine.tree(cmd));
      if (t.includes('"type":"ERROR"') || t.includes('"type":"MISSING ')) expect(e, cmd).toMatchObject({ decision: 'deny', rule: 'unparseable' });
    }
  });
});
