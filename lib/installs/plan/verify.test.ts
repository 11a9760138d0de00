// Runs the verify steps with the real interpreters of this machine, so the failure parser is
// tested against their real output (python3, node, dash as sh, bash).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { InstallStep, PlanSkillFile, TargetTools } from './types';
import { scriptInterpreter, type VerifyInput, verificationFailure, verifySteps } from './verify';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-verify-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const HAS: TargetTools = { python3: true, pip: true, node: true, npm: true, apt: true, bash: true };

function write(rel: string, content: string): PlanSkillFile {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), content);
  return { path: rel, size: Buffer.byteLength(content), firstLine: content.split('\n')[0] };
}

function steps(input: Partial<VerifyInput>) {
  return verifySteps({ skillDir: dir, files: [], modules: [], bins: [], anyBins: [], has: HAS, python: 'python3', ...input });
}

function run(step: InstallStep) {
  const r = spawnSync(step.argv[0], step.argv.slice(1), {
    cwd: step.cwd && fs.existsSync(step.cwd) ? step.cwd : dir,
    env: { ...process.env, ...step.env, PYTHONPYCACHEPREFIX: path.join(dir, '.pycache') },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { exitCode: r.status ?? 1, stdout: r.stdout, stderr: r.stderr, timedOut: false };
}

const reasonOf = (step: InstallStep) => verificationFailure(step, run(step))?.reason ?? null;

// Every case spawns real interpreters, which a loaded CI machine can make take seconds to start.
describe('verify steps against real interpreters', { timeout: 60_000 }, () => {
  it('a syntax error is reported with the file and the line the interpreter names', () => {
    const files = [
      write('scripts/ok.py', 'import json\nprint(json.dumps({}))\n'),
      write('scripts/bad.py', 'import os\ndef f(:\n  pass\n'),
      write('scripts/indent.py', 'x = 1\n  y = 2\n'),
      write('scripts/ok.mjs', 'export const x = 1;\n'),
      write('scripts/bad.js', 'const a = 1;\nfunction (\n'),
      write('scripts/bad.mjs', 'export const x = ;\n'),
      write('scripts/bad.sh', 'echo one\nif true; then\necho hi\n'),
      write('scripts/bad-bash.sh', '#!/usr/bin/env bash\necho "unterminated\n'),
      write('bin/tool', '#!/usr/bin/env python3\nprint(1\n'),
      write('README.md', '# not a script\n'),
    ];
    const plan = steps({ files });
    expect(plan.problems).toEqual([]);
    const syntax = plan.steps.filter((s) => s.check?.kind === 'syntax');
    expect(syntax.map((s) => [s.argv[0], s.argv.at(-1)?.slice(dir.length + 1)])).toEqual([
      ['python3', 'scripts/ok.py'],
      ['python3', 'scripts/bad.py'],
      ['python3', 'scripts/indent.py'],
      ['node', 'scripts/ok.mjs'],
      ['node', 'scripts/bad.js'],
      ['node', 'scripts/bad.mjs'],
      ['sh', 'scripts/bad.sh'],
      ['bash', 'scripts/bad-bash.sh'],
      ['python3', 'bin/tool'],
    ]);
    expect(syntax.map(reasonOf)).toEqual([
      null,
      'syntax_error: scripts/bad.py:2',
      'syntax_error: scripts/indent.py:2',
      null,
      'syntax_error: scripts/bad.js:2',
      'syntax_error: scripts/bad.mjs:1',
      'syntax_error: scripts/bad.sh:4',
      'syntax_error: scripts/bad-bash.sh:2',
      'syntax_error: bin/tool:2',
    ]);
    const bad = syntax[1];
    expect(verificationFailure(bad, run(bad))).toMatchObject({ code: 'syntax_error', file: 'scripts/bad.py', line: 2, detail: 'SyntaxError: invalid syntax' });
    expect(fs.existsSync(path.join(dir, 'scripts/__pycache__'))).toBe(false);
  });

  it('imports: a missing module is named; the others pass', () => {
    const [ok] = steps({ modules: ['json', 'os.path'] }).steps;
    expect(reasonOf(ok)).toBeNull();
    const [bad] = steps({ modules: ['json', 'skilldock_no_such_module_zz'] }).steps;
    expect(bad.argv.slice(0, 2)).toEqual(['python3', '-c']);
    expect(verificationFailure(bad, run(bad))).toMatchObject({
      code: 'import_failed',
      module: 'skilldock_no_such_module_zz',
      reason: 'import_failed: skilldock_no_such_module_zz',
      detail: expect.stringContaining('ModuleNotFoundError'),
    });
  });

  it('binaries: the first missing one is named; anyBins needs one of them', () => {
    const [bins] = steps({ bins: ['sh', 'skilldock-no-such-bin', 'ls'] }).steps;
    expect(reasonOf(bins)).toBe('missing_binary: skilldock-no-such-bin');
    expect(reasonOf(steps({ bins: ['sh', 'ls'] }).steps[0])).toBeNull();
    expect(reasonOf(steps({ anyBins: ['skilldock-nope-a', 'sh'] }).steps[0])).toBeNull();
    expect(reasonOf(steps({ anyBins: ['skilldock-nope-a', 'skilldock-nope-b'] }).steps[0])).toBe('missing_binary: skilldock-nope-a | skilldock-nope-b');
  });

  it('files: a changed or missing file is named', () => {
    const file = write('SKILL.md', '---\nname: x\n---\n');
    const [check] = steps({
      files: [file, { ...write('data/a b.txt', 'same'), sha256: '8a1fdb7ec4cd7ca3d3fe14a4c8a2e6cc7b60a4c3ea4f0c2cdbd4cab8f0d5a5d6' }],
    }).steps;
    expect(reasonOf(check)).toBe('file_changed: data/a b.txt');
    const [unchanged] = steps({ files: [file] }).steps;
    expect(reasonOf(unchanged)).toBeNull();
    const [missing] = steps({ files: [file, { path: 'gone.txt', size: 3 }] }).steps;
    expect(reasonOf(missing)).toBe('file_changed: gone.txt');
  });

  it('an interpreter the image lacks is a problem, not a step', () => {
    const plan = steps({ files: [write('x.sh', '#!/bin/bash\necho\n'), write('y.js', '1\n')], has: { ...HAS, bash: false, node: false } });
    expect(plan.steps.map((s) => s.check?.kind)).toEqual(['files']);
    expect(plan.problems.map((p) => p.code === 'unresolved_precondition' && p.requirement)).toEqual(['bash', 'node']);
  });

  it('a timeout and an unchecked step have their own reasons', () => {
    const step: InstallStep = { stage: 'deps', title: 'Install', argv: ['true'], timeoutMs: 1 };
    expect(verificationFailure(step, { exitCode: 124, stdout: '', stderr: '', timedOut: true })?.code).toBe('timeout');
    expect(verificationFailure(step, { exitCode: 2, stdout: '', stderr: 'boom' })).toMatchObject({
      code: 'step_failed',
      reason: 'step_failed: Install (exit 2)',
    });
  });

  it('scriptInterpreter reads extensions, then shebangs', () => {
    expect(scriptInterpreter({ path: 'a.sh', size: 1, firstLine: '#!/bin/bash' })).toBe('bash');
    expect(scriptInterpreter({ path: 'a.sh', size: 1 })).toBe('sh');
    expect(scriptInterpreter({ path: 'tool', size: 1, firstLine: '#!/usr/bin/env -S node --no-warnings' })).toBe('node');
    expect(scriptInterpreter({ path: 'tool', size: 1, firstLine: '#!/usr/bin/env ruby' })).toBeNull();
    expect(scriptInterpreter({ path: 'notes.txt', size: 1, firstLine: '#!/bin/sh' })).toBeNull();
  });
});
