import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../../core/which';
import { ensureRuntimeDir, type RuntimeLayout } from '../dir';
import { parsePackageSpec } from '../spec';
import type { ManagerContext } from '../types';
import { analyzeSkillDeps } from './analyze';
import { checkDeps } from './check';
import type { ResolvedDep } from './types';

let tmp: string;
let layout: RuntimeLayout;
let ctx: ManagerContext;
let skillDir: string;
let pyLog: string;
let pyWrapper: string;
let slowPython: string;
const baseEnv = { PATH: process.env.PATH, HOME: process.env.HOME };
const dep = (raw: string, extra: Partial<ResolvedDep> = {}): ResolvedDep => ({
  spec: parsePackageSpec(raw, { context: 'deps' }),
  source: 'declared',
  ...extra,
});

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-deps-check-'));
  layout = ensureRuntimeDir(path.join(tmp, 'rt'));
  ctx = { runtimeDir: layout.root };
  // A real Python package (with dist-info) in the runtime pip dir.
  fs.mkdirSync(path.join(layout.pip, 'fakepkg_x'));
  fs.writeFileSync(path.join(layout.pip, 'fakepkg_x', '__init__.py'), 'raise SystemExit("top-level code must not run")\n');
  fs.mkdirSync(path.join(layout.pip, 'fakepkg_x-1.2.3.dist-info'));
  fs.writeFileSync(path.join(layout.pip, 'fakepkg_x-1.2.3.dist-info', 'METADATA'), 'Metadata-Version: 2.1\nName: fakepkg_x\nVersion: 1.2.3\n');
  // Real npm packages in the runtime node_modules: CommonJS, and ESM-only without "main".
  const pkg = (name: string, json: object, file: string, code: string) => {
    const d = path.join(layout.npmModules, name);
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, 'package.json'), JSON.stringify({ name, ...json }));
    fs.writeFileSync(path.join(d, file), code);
  };
  pkg('some-pkg', { version: '4.5.6', main: 'index.js' }, 'index.js', 'module.exports = 1;\n');
  pkg('esm-only-pkg', { version: '1.0.0', type: 'module', exports: { import: './index.mjs' } }, 'index.mjs', 'export default 1;\n');
  // A GitHub-release binary.
  fs.writeFileSync(path.join(layout.bin, 'lazygit'), '#!/bin/sh\n', { mode: 0o755 });
  // A skill with a module of its own in scripts/.
  skillDir = path.join(tmp, 'skill');
  fs.mkdirSync(path.join(skillDir, 'scripts'), { recursive: true });
  fs.writeFileSync(path.join(skillDir, 'scripts', 'skillhelper_mod.py'), '');
  // python3 wrappers: one logs every argv element (to prove what reaches the process), one hangs.
  const realPython = which('python3')!;
  pyLog = path.join(tmp, 'py-argv.log');
  pyWrapper = path.join(tmp, 'python-logging');
  fs.writeFileSync(pyWrapper, `#!/bin/sh\necho "=== run" >> '${pyLog}'\nprintf '%s\\n' "$@" >> '${pyLog}'\nexec '${realPython}' "$@"\n`, { mode: 0o755 });
  slowPython = path.join(tmp, 'python-slow');
  fs.writeFileSync(slowPython, '#!/bin/sh\nexec sleep 10\n', { mode: 0o755 });
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const byRaw = (deps: { spec: { raw: string }; status: string; detail: string }[]) => Object.fromEntries(deps.map((d) => [d.spec.raw, d]));

describe('checkDeps against real python3 and node', () => {
  it('pip: present vs absent in one python3 process, without running module code', async () => {
    fs.rmSync(pyLog, { force: true });
    const r = byRaw(
      await checkDeps(ctx, [dep('pip:fakepkg_x'), dep('pip:absent_mod_xyz'), dep('pip:Fakepkg-X>=1', { importName: 'fakepkg_x' })], {
        python: pyWrapper,
        baseEnv,
      }),
    );
    expect(r['pip:fakepkg_x'].status).toBe('ok');
    expect(r['pip:fakepkg_x'].detail).toContain('version 1.2.3');
    expect(r['pip:fakepkg_x'].detail).toContain(path.join(layout.pip, 'fakepkg_x'));
    expect(r['pip:absent_mod_xyz'].status).toBe('missing');
    expect(r['pip:absent_mod_xyz'].detail).toContain('absent_mod_xyz');
    expect(r['pip:Fakepkg-X>=1'].status).toBe('ok');
    const log = fs.readFileSync(pyLog, 'utf8');
    expect(log.match(/=== run/g)).toHaveLength(1);
    expect(log).toContain('[["fakepkg_x","fakepkg_x"],["absent_mod_xyz","absent_mod_xyz"],["fakepkg_x","Fakepkg-X"]]');
  });

  it('pip: the skill scripts/ dir is on PYTHONPATH only when skillDir is given', async () => {
    const without = await checkDeps(ctx, [dep('pip:skillhelper_mod')], { baseEnv });
    expect(without[0].status).toBe('missing');
    const withDir = await checkDeps(ctx, [dep('pip:skillhelper_mod')], { baseEnv, skillDir });
    expect(withDir[0].status).toBe('ok');
  });

  it('npm: present (CommonJS and ESM-only) vs absent in one node process', async () => {
    const r = byRaw(await checkDeps(ctx, [dep('npm:some-pkg'), dep('npm:esm-only-pkg'), dep('npm:definitely-absent-pkg-xyz')], { baseEnv }));
    expect(r['npm:some-pkg'].status).toBe('ok');
    expect(r['npm:some-pkg'].detail).toContain('version 4.5.6');
    expect(r['npm:esm-only-pkg'].status).toBe('ok');
    expect(r['npm:definitely-absent-pkg-xyz'].status).toBe('missing');
  });

  it('binaries on the runtime PATH, system/apt names, and github binaries in bin/', async () => {
    const r = byRaw(
      await checkDeps(
        ctx,
        [dep('sh'), dep('system:definitely-not-a-binary-xyz'), dep('apt:sh'), dep('github:jesseduffield/lazygit'), dep('github:cli/cli@v2.40.0')],
        { baseEnv },
      ),
    );
    expect(r.sh.status).toBe('ok');
    expect(r.sh.detail).toMatch(/found at \/.*\/sh$/);
    expect(r['system:definitely-not-a-binary-xyz'].status).toBe('missing');
    expect(r['apt:sh'].status).toBe('ok');
    expect(r['github:jesseduffield/lazygit'].status).toBe('ok');
    expect(r['github:cli/cli@v2.40.0'].status).toBe('missing');
    expect(r['github:cli/cli@v2.40.0'].detail).toContain('GitHub-release installs arrive with the GitHub tab');
  });

  it('hostile names never reach a process', async () => {
    fs.rmSync(pyLog, { force: true });
    const forged: ResolvedDep = { spec: { raw: 'pip:os;import sys', manager: 'pip', name: 'os;import sys' }, source: 'declared' };
    const forgedNpm: ResolvedDep = { spec: { raw: "npm:a');require(", manager: 'npm', name: "a');require(" }, source: 'declared' };
    const r = await checkDeps(ctx, [forged, forgedNpm, dep('pip:fakepkg_x', { importName: 'os;import sys' }), dep('pip:fakepkg_x')], {
      python: pyWrapper,
      baseEnv,
    });
    expect(r.map((d) => d.status)).toEqual(['unknown', 'unknown', 'unknown', 'ok']);
    expect(r[0].detail).toContain('not checked');
    expect(r[0].detail).toContain("shell metacharacter ';'");
    expect(r[2].detail).toContain('is not a Python module name');
    const log = fs.readFileSync(pyLog, 'utf8');
    expect(log).toContain('fakepkg_x');
    expect(log).not.toContain('import sys"');
    expect(log).not.toContain('os;import');
  });

  it('a hanging interpreter gives status unknown after the timeout, never a throw', async () => {
    const started = Date.now();
    const r = await checkDeps(ctx, [dep('pip:fakepkg_x'), dep('sh')], { python: slowPython, baseEnv, timeoutMs: 300 });
    expect(r[0].status).toBe('unknown');
    expect(r[0].detail).toContain('did not finish within 300 ms');
    expect(r[1].status).toBe('ok');
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a missing interpreter gives status unknown with the reason', async () => {
    const r = await checkDeps(ctx, [dep('pip:fakepkg_x'), dep('npm:some-pkg')], {
      python: 'definitely-no-python-xyz',
      node: 'definitely-no-node-xyz',
      baseEnv,
    });
    expect(r.map((d) => d.status)).toEqual(['unknown', 'unknown']);
    expect(r[0].detail).toBe('definitely-no-python-xyz is not available on the runtime PATH');
  });
});

describe('analyzeSkillDeps', () => {
  it('parses, scans from disk, resolves and checks one skill', async () => {
    const dir = path.join(tmp, 'analyzed');
    fs.mkdirSync(path.join(dir, 'scripts'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: a\nexclude_deps: [pip:ignored_mod, npm:bogus-x]\n---\n');
    fs.writeFileSync(
      path.join(dir, 'scripts', 'main.py'),
      '#!/usr/bin/env python3\nimport os\nimport fakepkg_x\nimport absent_mod_xyz\nimport ignored_mod\nimport helper\n',
    );
    fs.writeFileSync(path.join(dir, 'scripts', 'helper.py'), 'import json\n');
    fs.writeFileSync(path.join(dir, 'scripts', 'app.js'), "const p = require('some-pkg');\nrequire('node:fs');\n");
    const a = await analyzeSkillDeps({ skillDir: dir }, ctx, { baseEnv });
    expect(a.declared).toBeNull();
    expect(a.deps.map((d) => [d.spec.raw, d.status])).toEqual([
      ['npm:some-pkg', 'ok'],
      ['python3', 'ok'],
      ['pip:fakepkg_x', 'ok'],
      ['pip:absent_mod_xyz', 'missing'],
    ]);
    expect(a.missing).toEqual(['pip:absent_mod_xyz']);
    expect(a.excludedScanned.map((d) => d.spec.name)).toEqual(['ignored_mod']);
    expect(a.unusedExcludes.map((e) => e.raw)).toEqual(['npm:bogus-x']);
    expect(a.scanned).toHaveLength(5);
    expect(a.diagnostics).toEqual([]);
  });
});
