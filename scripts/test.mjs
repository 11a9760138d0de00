#!/usr/bin/env node
// `npm test`: start the test environment, run the vitest phases, print one summary line.
//
//   node scripts/test.mjs              all phases
//   node scripts/test.mjs lint         lint (Biome) and typecheck (tsc) only
//   node scripts/test.mjs unit         unit tests only (no PostgreSQL / Docker started)
//   node scripts/test.mjs integration  integration tests on PGlite, then on PostgreSQL
//   node scripts/test.mjs pg           integration tests on PostgreSQL only
//   node scripts/test.mjs e2e          end-to-end tests
//
// The last line of stdout is exactly `N passed, N failed` (`, N skipped` when > 0), which is what
// CI reads. Exit 1 when a test failed, nothing passed, or a phase exited non-zero.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, STATE_DIR, setup, teardown } from './test-env.mjs';
import { filesNotOn, phaseResult, summarize, testFilesOnDisk } from './test-summary.mjs';

const PHASES = [
  // Static checks run first: a lint or type error fails the run before any test starts.
  { id: 'lint', name: 'lint', check: ['node_modules/@biomejs/biome/bin/biome', ['check', '.', '--max-diagnostics=50']] },
  { id: 'typecheck', name: 'typecheck', check: ['node_modules/typescript/bin/tsc', ['--noEmit', '-p', '.']] },
  { id: 'unit', name: 'unit', project: 'unit', needsEnv: false, env: {} },
  { id: 'int-pglite', name: 'integration (pglite)', project: 'integration', needsEnv: true, env: { SKILLDOCK_TEST_DB: 'pglite' } },
  { id: 'int-pg', name: 'integration (postgres)', project: 'integration', needsEnv: true, needsPg: true, env: { SKILLDOCK_TEST_DB: 'postgres' } },
  { id: 'e2e', name: 'e2e', project: 'e2e', needsEnv: true, env: {} },
];

const SUBSETS = {
  all: ['lint', 'typecheck', 'unit', 'int-pglite', 'int-pg', 'e2e'],
  lint: ['lint', 'typecheck'],
  unit: ['unit'],
  integration: ['int-pglite', 'int-pg'],
  pg: ['int-pg'],
  e2e: ['e2e'],
};

const subset = process.argv[2] ?? 'all';
if (!SUBSETS[subset]) {
  process.stderr.write(`usage: node scripts/test.mjs [${Object.keys(SUBSETS).join('|')}]\n`);
  process.exit(2);
}
const phases = PHASES.filter((p) => SUBSETS[subset].includes(p.id));
const vitestBin = path.join(REPO, 'node_modules', '.bin', 'vitest');
const reportDir = path.join(STATE_DIR, 'reports');

const envState = {}; // filled in place by setup(), so an interrupted setup can still be torn down
let setupDone = false;
let child = null;
let interrupted = null;
let tornDown = false;

async function doTeardown() {
  if (tornDown) return;
  tornDown = true;
  if (!envState.envDir || envState.reused) return;
  try {
    await teardown(envState);
  } catch (e) {
    process.stderr.write(`[test] teardown failed: ${e.stack ?? e}\n`);
  }
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (interrupted) {
      // Second signal: stop waiting for the phase or setup, clean up now.
      process.stderr.write(`\n[test] ${sig} again: tearing down now\n`);
      killGroup('SIGKILL');
      doTeardown().finally(() => process.exit(130));
      return;
    }
    interrupted = sig;
    process.stderr.write(`\n[test] ${sig}: stopping after the current step\n`);
    killGroup(sig);
  });
}

/** Signal vitest and its workers (they share vitest's process group). */
function killGroup(sig, pid = child?.pid) {
  if (!pid) return;
  try {
    process.kill(-pid, sig);
  } catch {
    /* group already gone */
  }
}

function runVitest(phase, env, expectedFiles) {
  const out = path.join(reportDir, `${phase.id}.json`);
  fs.rmSync(out, { force: true });
  const args = [
    vitestBin,
    'run',
    '--project',
    phase.project,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
    ...(expectedFiles === 0 ? ['--passWithNoTests'] : []),
    ...(phase.args ?? []),
  ];
  return new Promise((resolve) => {
    // Own process group: a signal reaches vitest and its fork workers, and none outlives the phase.
    child = spawn(process.execPath, args, { cwd: REPO, env, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
    const pid = child.pid;
    child.on('error', (e) => {
      process.stderr.write(`[test] could not start vitest: ${e.message}\n`);
    });
    child.on('close', (code, signal) => {
      child = null;
      killGroup('SIGKILL', pid); // stray workers or processes a test leaked
      let report = null;
      try {
        report = JSON.parse(fs.readFileSync(out, 'utf8'));
      } catch {
        /* crashed before writing it */
      }
      resolve({ exitCode: code ?? (signal ? 128 : 1), report });
    });
  });
}

/** A static check (lint, typecheck) counts as one test: passed when the tool exits 0. */
function runCheck(phase) {
  const [bin, args] = phase.check;
  return new Promise((resolve) => {
    child = spawn(process.execPath, [path.join(REPO, bin), ...args], { cwd: REPO, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
    const pid = child.pid;
    child.on('error', (e) => process.stderr.write(`[test] could not start ${phase.name}: ${e.message}\n`));
    child.on('close', (code, signal) => {
      child = null;
      killGroup('SIGKILL', pid);
      const exitCode = code ?? (signal ? 128 : 1);
      resolve({
        name: phase.name,
        passed: exitCode === 0 ? 1 : 0,
        failed: exitCode === 0 ? 0 : 1,
        skipped: 0,
        files: 1,
        exitCode,
        errors: exitCode === 0 ? [] : [`${phase.name} failed (exit ${exitCode})`],
      });
    });
  });
}

function childEnv(phase) {
  const env = { ...process.env, ...(envState.env ?? {}), ...phase.env };
  // Only the postgres phase talks to PostgreSQL; others must not inherit a developer's DATABASE_URL.
  delete env.DATABASE_URL;
  if (phase.needsPg) env.DATABASE_URL = envState.env.DATABASE_URL_TEST;
  if (envState.envDir) {
    env.SKILLDOCK_TEST_ENV_STATE = path.join(envState.envDir, 'state.json');
    // Scratch space removed by teardown even when a test file is killed before its afterAll.
    env.SKILLDOCK_TEST_TMPDIR = path.join(envState.envDir, 'tmp');
    fs.mkdirSync(env.SKILLDOCK_TEST_TMPDIR, { recursive: true });
  }
  return env;
}

/**
 * Builds the Debian python3 rootfs tarball of the sandbox tests in the background while the static
 * checks and unit tests run (minutes on a fresh machine; cached outside the repository after
 * that). The tests wait on the same lock, so a build still running when they need it is awaited.
 */
let prebuild = null;
function startImagePrebuild() {
  if (!phases.some((p) => p.project === 'integration')) return;
  if (!(process.env.PATH ?? '').split(':').some((d) => d && fs.existsSync(path.join(d, 'mmdebstrap')))) return;
  const code =
    "import('./test/helpers/sandbox-images.ts').then((m) => m.debianPythonRootfs()).catch((e) => { console.error('[test] image prebuild: ' + e.message); })";
  prebuild = spawn(process.execPath, ['--import', 'tsx', '-e', code], { cwd: REPO, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  prebuild.on('exit', () => {
    prebuild = null;
  });
}
function stopImagePrebuild() {
  if (!prebuild?.pid) return;
  try {
    process.kill(-prebuild.pid, 'SIGTERM');
  } catch {}
}

async function main() {
  const started = Date.now();
  fs.mkdirSync(reportDir, { recursive: true });
  startImagePrebuild();
  const onDisk = testFilesOnDisk(REPO);
  const results = [];
  let setupError = null;

  for (const phase of phases) {
    if (interrupted) {
      results.push(phaseResult({ name: phase.name, exitCode: 1, notRun: `not run: ${interrupted}` }));
      continue;
    }
    if (phase.check) {
      process.stdout.write(`\n=== phase: ${phase.name} ===\n`);
      results.push(await runCheck(phase));
      continue;
    }
    if (phase.needsEnv && !setupDone) {
      setupDone = true;
      process.stdout.write(`\n=== test environment ===\n`);
      try {
        await setup({ state: envState });
      } catch (e) {
        setupError = e;
        process.stderr.write(`[test] test environment setup failed: ${e.message}\n`);
        results.push(phaseResult({ name: 'setup', exitCode: 1, notRun: `setup failed: ${e.message.split('\n')[0]}` }));
      }
      if (envState.dockerError) process.stdout.write(`Docker tests will be skipped: ${envState.dockerError}\n`);
      if (interrupted) {
        results.push(phaseResult({ name: phase.name, exitCode: 1, notRun: `not run: ${interrupted}` }));
        continue;
      }
    }
    if (phase.needsEnv && setupError) {
      results.push(phaseResult({ name: phase.name, exitCode: 1, notRun: 'not run: the test environment did not start' }));
      continue;
    }
    // vitest.config.ts leaves out the files the engine's phase does not run; the count expected must agree.
    const engine = phase.env?.SKILLDOCK_TEST_DB;
    const excluded = engine ? filesNotOn(engine, REPO, onDisk[phase.project]) : [];
    const expectedFiles = onDisk[phase.project].length - excluded.length;
    const note = excluded.length ? `, ${excluded.length} ${engine === 'postgres' ? 'marked for PGlite only' : 'not marked for it'} left out` : '';
    process.stdout.write(`\n=== phase: ${phase.name} (${expectedFiles} test files${note}) ===\n`);
    const t0 = Date.now();
    const { exitCode, report } = await runVitest(phase, childEnv(phase), expectedFiles);
    const r = phaseResult({ name: phase.name, exitCode, report, expectedFiles });
    r.seconds = (Date.now() - t0) / 1000;
    results.push(r);
  }

  stopImagePrebuild();
  await doTeardown();

  const summary = summarize(results);
  const out = [`\n=== summary (${((Date.now() - started) / 1000).toFixed(1)} s) ===`, ...summary.lines];
  process.stdout.write(out.join('\n') + '\n');
  return interrupted ? 1 : summary.exitCode;
}

main().then(
  (code) => process.exit(code),
  async (e) => {
    process.stderr.write(`[test] ${e.stack ?? e}\n`);
    await doTeardown();
    process.stdout.write('0 passed, 1 failed\n');
    process.exit(1);
  },
);
