import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { dockerGet, dockerPing } from './test-env.mjs';
import {
  countReport,
  enginesOf,
  failedTests,
  formatSummaryLine,
  phaseResult,
  projectGlobs,
  projectOfFile,
  summarize,
  testFilesOnDisk,
} from './test-summary.mjs';

// A trimmed real vitest 4 JSON report: one passing file, one file with a failed and a skipped
// test, one file that failed to import (no test results at all).
const report = {
  numTotalTestSuites: 3,
  numPassedTests: 3,
  numFailedTests: 1,
  numPendingTests: 1,
  numTodoTests: 1,
  success: false,
  testResults: [
    { name: '/r/lib/a.test.ts', status: 'passed', assertionResults: [{ status: 'passed' }, { status: 'passed' }] },
    {
      name: '/r/lib/b.test.ts',
      status: 'failed',
      assertionResults: [
        { status: 'passed' },
        { status: 'failed', title: 'rejects a bad spec', failureMessages: ['\nAssertionError: expected 400 to be 409\n    at b.test.ts:9'] },
        { status: 'skipped' },
        { status: 'todo' },
      ],
    },
    { name: '/r/lib/c.test.ts', status: 'failed', message: 'Failed to load url ./missing', assertionResults: [] },
  ],
};

describe('summary line', () => {
  it('is exactly "N passed, N failed" without skips', () => {
    expect(formatSummaryLine({ passed: 12, failed: 0, skipped: 0 })).toBe('12 passed, 0 failed');
    expect(formatSummaryLine({ passed: 0, failed: 3 })).toBe('0 passed, 3 failed');
  });

  it('appends the skipped count only when there is one', () => {
    expect(formatSummaryLine({ passed: 5, failed: 1, skipped: 2 })).toBe('5 passed, 1 failed, 2 skipped');
  });
});

describe('vitest JSON report', () => {
  it('counts a file that failed outside any test as one failure, todo as skipped', () => {
    expect(countReport(report)).toEqual({ passed: 3, failed: 2, skipped: 2, files: 3 });
  });

  it('names each failed test and failed file with the first line of its error', () => {
    expect(failedTests(report).map((l) => l.replace(/^.*\/r\//, ''))).toEqual([
      'lib/b.test.ts › rejects a bad spec: AssertionError: expected 400 to be 409',
      'lib/c.test.ts: Failed to load url ./missing',
    ]);
    expect(phaseResult({ name: 'x', exitCode: 1, report }).errors).toHaveLength(2);
  });

  it('names at most a dozen failures and counts the rest', () => {
    const many = { testResults: Array.from({ length: 15 }, (_, i) => ({ name: `/r/f${i}.test.ts`, status: 'failed', message: 'boom' })) };
    const lines = failedTests(many);
    expect(lines).toHaveLength(13);
    expect(lines[12]).toBe('… and 3 more');
  });

  it('counts a phase without a report (crash) as one failure', () => {
    const r = phaseResult({ name: 'unit', exitCode: 1, report: null });
    expect(r).toMatchObject({ passed: 0, failed: 1 });
    expect(r.errors[0]).toMatch(/crashed/);
  });

  it('counts a non-zero exit with no failed test as one failure', () => {
    const ok = { numPassedTests: 4, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, testResults: [] };
    expect(phaseResult({ name: 'x', exitCode: 1, report: ok })).toMatchObject({ passed: 4, failed: 1 });
    expect(phaseResult({ name: 'x', exitCode: 0, report: ok })).toMatchObject({ passed: 4, failed: 0 });
  });

  it('fails a phase that ran fewer files than exist on disk', () => {
    const ok = { numPassedTests: 1, numFailedTests: 0, testResults: [{ status: 'passed', assertionResults: [] }] };
    const r = phaseResult({ name: 'unit', exitCode: 0, report: ok, expectedFiles: 2 });
    expect(r.failed).toBe(1);
    expect(r.errors[0]).toMatch(/2 test files on disk but vitest ran 1/);
  });
});

describe('engine marks', () => {
  it('runs a file on PostgreSQL unless its first lines name both engines or PGlite only', () => {
    expect(enginesOf('// The job queue.\nimport x;')).toEqual(['postgres']);
    expect(enginesOf('// test-phase: both engines. Its subject is the queue.\n')).toEqual(['pglite', 'postgres']);
    expect(enginesOf('// test-phase: pglite only. Its subject is a lock.\n')).toEqual(['pglite']);
  });

  it('reads the mark only in the first lines, not in a string further down', () => {
    expect(enginesOf(`${'x'.repeat(1000)}// test-phase: pglite only`)).toEqual(['postgres']);
  });
});

describe('summarize', () => {
  const pass = (name: string, passed: number, skipped = 0) => ({ name, passed, failed: 0, skipped, files: 1, exitCode: 0, errors: [] });

  it('sums phases and ends with the CI line', () => {
    const s = summarize([pass('unit', 3, 1), pass('e2e', 2)]);
    expect(s.lines.at(-1)).toBe('5 passed, 0 failed, 1 skipped');
    expect(s.exitCode).toBe(0);
  });

  it('fails when no test ran at all', () => {
    const s = summarize([pass('unit', 0), pass('e2e', 0)]);
    expect(s.lines.at(-1)).toBe('0 passed, 0 failed');
    expect(s.exitCode).toBe(1);
  });

  it('fails when only skipped tests ran', () => {
    expect(summarize([pass('unit', 0, 4)]).exitCode).toBe(1);
  });

  it('fails on any failed test or any non-zero phase exit', () => {
    expect(summarize([pass('unit', 3), { ...pass('e2e', 1), failed: 1 }]).exitCode).toBe(1);
    expect(summarize([pass('unit', 3), { ...pass('e2e', 1), exitCode: 2 }]).exitCode).toBe(1);
  });
});

describe('test projects', () => {
  it('assigns files to exactly one project', () => {
    expect(projectOfFile('lib/skills/frontmatter.test.ts')).toBe('unit');
    expect(projectOfFile('scripts/test-env.test.ts')).toBe('unit');
    expect(projectOfFile('lib/jobs/queue.int.test.ts')).toBe('integration');
    expect(projectOfFile('app/api/v1/skills/route.int.test.ts')).toBe('integration');
    expect(projectOfFile('test/api.int.test.ts')).toBe('integration');
    expect(projectOfFile('e2e/login.e2e.test.ts')).toBe('e2e');
    expect(projectOfFile('components/policy/exec-row.test.tsx')).toBe('unit');
    expect(projectOfFile('components/x.test.ts')).toBe('unit');
    expect(projectOfFile('components/x.int.test.ts')).toBeUndefined();
    expect(projectOfFile('lib/x.test.tsx')).toBeUndefined();
    expect(projectOfFile('lib/node_modules/x.test.ts')).toBeUndefined();
    expect(projectOfFile('lib/x.ts')).toBeUndefined();
  });

  it('gives vitest globs that exclude other projects', () => {
    expect(projectGlobs('unit').include).toContain('lib/**/*.test.ts');
    expect(projectGlobs('unit').include).toContain('components/**/*.test.tsx');
    expect(projectGlobs('unit').exclude).toContain('**/*.int.test.ts');
    expect(projectGlobs('e2e').include).toEqual(['e2e/**/*.e2e.test.ts']);
  });

  it('renders every component test in happy-dom (its first line says so)', () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    // A .test.ts under components/ tests a module's plain functions, in node.
    const components = (testFilesOnDisk(root).unit as string[]).filter((f) => f.startsWith('components/') && f.endsWith('.tsx'));
    expect(components.length).toBeGreaterThan(0);
    const unmarked = components.filter((f) => !fs.readFileSync(path.join(root, f), 'utf8').startsWith('// @vitest-environment happy-dom\n'));
    expect(unmarked).toEqual([]);
  });

  it('finds this very file on disk', () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    expect(testFilesOnDisk(root).unit).toContain('scripts/test-env.test.ts');
  });
});

describe('docker probe', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-ping-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('never contacts a non-loopback DOCKER_HOST', async () => {
    const r = await dockerGet('tcp://192.0.2.10:2375', '/_ping', 200);
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/not probing/);
  });

  it('answers true only for an engine that says OK on /_ping over a unix socket', async () => {
    const sock = path.join(dir, 'fake.sock');
    const srv = net.createServer((c) =>
      c.once('data', (d) => {
        const ok = d.toString().startsWith('GET /_ping ');
        c.end(`HTTP/1.1 ${ok ? '200 OK' : '404 Not Found'}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n${ok ? 'OK' : 'no'}`);
      }),
    );
    await new Promise<void>((r) => srv.listen(sock, r));
    try {
      expect(await dockerPing(`unix://${sock}`)).toBe(true);
      expect(await dockerPing(`unix://${path.join(dir, 'absent.sock')}`)).toBe(false);
    } finally {
      await new Promise((r) => srv.close(r));
    }
  });
});
