// Constructs that tree-sitter-bash and a POSIX sh (dash) or bash read differently. Each one is run
// for real through `dash -c` and `bash -c` with a harmless marker (local processes only, in a
// temporary folder) to show the difference exists, and through the engine to show it is refused.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presetRules } from '../profiles/presets';
import { createShellParser, type ShellParser } from '../shell/parser';
import { PRESETS } from '../types';
import { createPolicyEngine, type PolicyEngine } from './engine';

const has = (bin: string) => ['/bin', '/usr/bin'].some((d) => fs.existsSync(path.join(d, bin)));
const SHELLS = ['dash', 'bash'].filter(has);

let engine: PolicyEngine;
let parser: ShellParser;
let dir: string;
beforeAll(async () => {
  engine = await createPolicyEngine();
  parser = await createShellParser();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-differential-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(shell: string, command: string): string {
  try {
    return execFileSync(shell, ['-c', command], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
      env: { ...process.env, PATH: '/usr/bin:/bin', BASH_ENV: '', ENV: '' },
    });
  } catch (e) {
    return String((e as { stdout?: string }).stdout ?? '');
  }
}

/** Heredoc delimiters that end at a metacharacter for sh and at a blank for tree-sitter. */
function hiddenHeredocs(): { command: string; marker: string }[] {
  const out: { command: string; marker: string }[] = [];
  const tails: [string, string][] = [
    [';', 'true'],
    [';', ':'],
    ['|', 'cat'],
    ['|', 'sh'],
    ['&&', 'true'],
    ['||', 'true'],
    ['&', 'true'],
    [';', 'echo'],
  ];
  let i = 0;
  for (const name of ['X', 'EOF', 'end_1', 'a.b-c']) {
    for (const op of ['<<', '<<-']) {
      for (const [sep, tail] of tails) {
        const marker = `MARK${i++}`;
        const delim = `${name}${sep}${tail}`;
        const indent = op === '<<-' ? '\t' : '';
        out.push({ command: `cat ${op}${delim}\n${indent}${name}\necho ${marker}\n${delim}`, marker });
      }
    }
  }
  return out;
}

describe.skipIf(!SHELLS.length)('parse differentials against real shells', () => {
  const cases = hiddenHeredocs();

  // Starts a real shell per spelling and shell (about 130 processes): more than the default 5 s on a busy machine.
  it(`hides a command from tree-sitter in ${cases.length} heredoc spellings; sh runs it, the engine refuses it`, () => {
    for (const c of cases) {
      const p = parser.parse(c.command);
      if (!p.ok) throw new Error(p.reason);
      const body = [...p.tree.rootNode.descendantsOfType('heredoc_body')].map((n) => n?.text ?? '').join('');
      p.tree.delete();
      // tree-sitter reads the marker line as heredoc text (data) …
      expect(body, c.command).toContain(`echo ${c.marker}`);
      // … while the shells run it as a command.
      for (const sh of SHELLS) expect(run(sh, c.command), `${sh}: ${JSON.stringify(c.command)}`).toContain(c.marker);
      for (const preset of PRESETS) {
        const e = engine.evaluate(c.command, presetRules(preset));
        expect(e, `${preset}: ${JSON.stringify(c.command)}`).toMatchObject({ decision: 'deny', rule: 'unparseable', segments: [] });
        expect(e.reason).toMatch(/heredoc delimiter/);
      }
    }
  }, 60_000);

  it.skipIf(SHELLS.length < 2)("$'…' is decoded by bash and not by dash: refused in every spelling", () => {
    const spellings = ["$'\\x4d\\x41RK'", "$'\\115ARK'", "$'\\u004dARK'", "$'M'ARK", "M$'A'RK", '"M"$\'ARK\''];
    for (const s of spellings) {
      const cmd = `echo ${s}`;
      expect(run('bash', cmd).trim(), cmd).toBe('MARK');
      expect(run('dash', cmd).trim(), cmd).not.toBe('MARK');
      for (const preset of PRESETS)
        expect(engine.evaluate(cmd, presetRules(preset)), `${preset}: ${cmd}`).toMatchObject({ decision: 'deny', rule: 'unparseable' });
    }
  });

  it.skipIf(SHELLS.length < 2)('&> writes both outputs in bash and backgrounds the command in dash: refused', () => {
    for (const op of ['&>', '&>>', ' &> ', ' &>>']) {
      const cmd = `true ${op}/dev/null; echo "[$!]"`;
      expect(run('bash', cmd).trim(), cmd).toBe('[]');
      expect(run('dash', cmd).trim(), cmd).toMatch(/^\[\d+\]$/);
      for (const preset of PRESETS) expect(engine.evaluate(`ls ${op}/dev/null`, presetRules(preset)).rule, op).toBe('unparseable');
    }
  });
});

describe('constructs refused to fail closed', () => {
  it('refuses quoted or escaped delimiters with anything but letters, digits, _ . -', () => {
    const odd = ["'X;Y'", '"X;Y"', "'a b'", '"$X"', "'X'Y", '\\X;', '"X"\'Y\'', 'X$Y', "'X|sh'", '"X&&id"'];
    for (const d of odd) {
      const cmd = `cat <<${d}\nbody\n${d.replace(/['"\\]/g, '')}`;
      expect(engine.evaluate(cmd, presetRules('yolo')), cmd).toMatchObject({ decision: 'deny', rule: 'unparseable' });
    }
  });

  it('keeps ordinary heredocs, quoted or not, with or without tab stripping', () => {
    for (const d of ['EOF', "'EOF'", '"EOF"', '\\EOF', 'END_1', 'a.b-c']) {
      const plain = d.replace(/['"\\]/g, '');
      expect(engine.evaluate(`cat <<${d}\nhello\n${plain}`, presetRules('yolo')).decision, d).toBe('allow');
      expect(engine.evaluate(`cat <<-${d}\n\thello\n\t${plain}`, presetRules('yolo')).decision, `<<-${d}`).toBe('allow');
    }
  });

  it('refuses a heredoc whose end line is missing', () => {
    expect(engine.evaluate('cat <<EOF\nhello', presetRules('yolo')).rule).toBe('unparseable');
  });
});
