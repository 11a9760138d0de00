// Pure helpers for scripts/test.mjs and vitest.config.ts: which files belong to which vitest
// project, how a vitest JSON report is counted, and the final `N passed, N failed` line.
import fs from 'node:fs';
import path from 'node:path';

/**
 * The vitest projects. Each source is top-level folders (`dirs`) and a file name ending (`suffix`);
 * `excludeSuffixes` lists endings that belong to another project. vitest.config.ts builds its
 * globs from this. Component tests (`.test.tsx` files under components/) are unit tests that
 * render in happy-dom (a `.test.ts` there tests a component module's plain functions), chosen per file with a `// @vitest-environment happy-dom` first line.
 */
export const PROJECTS = {
  unit: {
    sources: [
      { dirs: ['lib', 'db', 'scripts'], suffix: '.test.ts' },
      { dirs: ['components'], suffix: '.test.tsx' },
      { dirs: ['components'], suffix: '.test.ts' },
    ],
    excludeSuffixes: ['.int.test.ts', '.e2e.test.ts'],
  },
  integration: { sources: [{ dirs: ['lib', 'db', 'app', 'test'], suffix: '.int.test.ts' }], excludeSuffixes: [] },
  e2e: { sources: [{ dirs: ['e2e'], suffix: '.e2e.test.ts' }], excludeSuffixes: [] },
};

/** Folders never searched for tests. */
export const IGNORED_DIRS = ['node_modules', '.git', '.next', '.data', '.test-env', 'dist', 'test-results'];

/** vitest `include` / `exclude` globs for one project. */
export function projectGlobs(name) {
  const p = PROJECTS[name];
  if (!p) throw new Error(`unknown test project ${name}`);
  return {
    include: p.sources.flatMap((src) => src.dirs.map((d) => `${d}/**/*${src.suffix}`)),
    exclude: [...IGNORED_DIRS.map((d) => `**/${d}/**`), ...p.excludeSuffixes.map((s) => `**/*${s}`)],
  };
}

/** The project a repo-relative path (forward slashes) belongs to, or undefined. */
export function projectOfFile(rel) {
  const parts = rel.split('/');
  if (parts.some((p) => IGNORED_DIRS.includes(p))) return undefined;
  for (const [name, p] of Object.entries(PROJECTS)) {
    if (parts.length < 2) continue;
    if (!p.sources.some((src) => src.dirs.includes(parts[0]) && rel.endsWith(src.suffix))) continue;
    if (p.excludeSuffixes.some((s) => rel.endsWith(s))) continue;
    return name;
  }
  return undefined;
}

/**
 * Which engine's phase runs an integration file, from its first lines. By default PostgreSQL only:
 * most files' subject (a container, an install, a gateway, an operation) does not depend on the
 * engine, and the embedded engine runs every e2e journey. `test-phase: both engines` adds the PGlite
 * phase for files whose subject is the database itself (the queue, migrations, notifications,
 * bootstrap races, the doors' writes); `test-phase: pglite only` moves a file to PGlite.
 */
export const ENGINE_MARKERS = { pglite: 'test-phase: pglite only', both: 'test-phase: both engines' };

/** The engines whose phase runs this file's text: ['postgres'], ['pglite'] or both. */
export function enginesOf(text) {
  const head = text.slice(0, 1000);
  if (head.includes(ENGINE_MARKERS.pglite)) return ['pglite'];
  if (head.includes(ENGINE_MARKERS.both)) return ['pglite', 'postgres'];
  return ['postgres'];
}

/** The integration files (repo-relative) that the phase on `engine` leaves out. */
export function filesNotOn(engine, root, files) {
  return files.filter((rel) => !enginesOf(fs.readFileSync(path.join(root, rel), 'utf8')).includes(engine));
}

/** Test files on disk, grouped by project: { unit: [...], integration: [...], e2e: [...] }. */
export function testFilesOnDisk(root) {
  const out = Object.fromEntries(Object.keys(PROJECTS).map((k) => [k, []]));
  const tops = new Set(Object.values(PROJECTS).flatMap((p) => p.sources.flatMap((src) => src.dirs)));
  const walk = (rel) => {
    let entries;
    try {
      entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (!IGNORED_DIRS.includes(e.name)) walk(r);
      } else if (e.isFile()) {
        const p = projectOfFile(r);
        if (p) out[p].push(r);
      }
    }
  };
  for (const t of tops) walk(t);
  return out;
}

/**
 * Count a vitest JSON report. A file that failed outside any test (import error, failing
 * beforeAll) counts as one failed test, so it cannot pass unnoticed.
 */
export function countReport(report) {
  const files = report?.testResults ?? [];
  let failed = report?.numFailedTests ?? 0;
  for (const f of files) {
    const anyFailedTest = (f.assertionResults ?? []).some((a) => a.status === 'failed');
    if (f.status === 'failed' && !anyFailedTest) failed += 1;
  }
  return {
    passed: report?.numPassedTests ?? 0,
    failed,
    skipped: (report?.numPendingTests ?? 0) + (report?.numTodoTests ?? 0),
    files: files.length,
  };
}

const MAX_NAMED_FAILURES = 12;

/** Short first line of a failure message, so CI's tail says what broke. */
function firstLine(message) {
  const line =
    String(message ?? '')
      .split('\n')
      .find((l) => l.trim() !== '') ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** `file › test: first line of the error` for each failed test (and file-level failure). */
export function failedTests(report) {
  const out = [];
  for (const f of report?.testResults ?? []) {
    const file = path.relative(process.cwd(), f.name ?? '') || f.name;
    const failed = (f.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed) out.push(`${file} › ${a.title}: ${firstLine(a.failureMessages?.[0])}`);
    if (f.status === 'failed' && failed.length === 0) out.push(`${file}: ${firstLine(f.message)}`);
  }
  if (out.length > MAX_NAMED_FAILURES) {
    const more = out.length - MAX_NAMED_FAILURES;
    return [...out.slice(0, MAX_NAMED_FAILURES), `… and ${more} more`];
  }
  return out;
}

/**
 * The result of one phase.
 * @param {{ name: string, exitCode: number|null, report?: object|null, expectedFiles?: number, notRun?: string }} phase
 */
export function phaseResult(phase) {
  const errors = [];
  if (phase.notRun) {
    return { name: phase.name, passed: 0, failed: 1, skipped: 0, files: 0, exitCode: phase.exitCode ?? 1, errors: [phase.notRun] };
  }
  let counts;
  if (!phase.report) {
    counts = { passed: 0, failed: 1, skipped: 0, files: 0 };
    errors.push(`no JSON report: vitest crashed (exit ${phase.exitCode})`);
  } else {
    counts = countReport(phase.report);
    errors.push(...failedTests(phase.report));
    if (phase.exitCode !== 0 && counts.failed === 0) {
      counts.failed += 1;
      errors.push(`vitest exited ${phase.exitCode} without a failed test (unhandled error or bad config)`);
    }
    if (phase.expectedFiles != null && counts.files < phase.expectedFiles) {
      counts.failed += 1;
      errors.push(`${phase.expectedFiles} test files on disk but vitest ran ${counts.files}: check vitest.config.ts`);
    }
  }
  return { name: phase.name, ...counts, exitCode: phase.exitCode, errors };
}

/** `N passed, N failed` with `, N skipped` only when something was skipped. */
export function formatSummaryLine({ passed, failed, skipped = 0 }) {
  return `${passed} passed, ${failed} failed` + (skipped > 0 ? `, ${skipped} skipped` : '');
}

/**
 * Combine phase results. The run fails when a test failed, when nothing passed, or when a
 * phase exited non-zero. The last element of `lines` is the line CI reads.
 */
export function summarize(results) {
  const total = { passed: 0, failed: 0, skipped: 0 };
  const lines = [];
  let anyPhaseFailed = false;
  for (const r of results) {
    total.passed += r.passed;
    total.failed += r.failed;
    total.skipped += r.skipped;
    if (r.exitCode !== 0) anyPhaseFailed = true;
    lines.push(`  ${r.name.padEnd(24)} ${formatSummaryLine(r)}  (${r.files} files${r.exitCode === 0 ? '' : `, exit ${r.exitCode}`})`);
    for (const e of r.errors ?? []) lines.push(`    ! ${e}`);
  }
  if (total.passed + total.failed === 0) lines.push('  ! no tests ran');
  else if (total.passed === 0) lines.push('  ! no test passed');
  const exitCode = total.failed > 0 || total.passed === 0 || anyPhaseFailed ? 1 : 0;
  lines.push(formatSummaryLine(total));
  return { ...total, exitCode, lines };
}
