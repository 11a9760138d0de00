import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { filesNotOn, projectGlobs, testFilesOnDisk } from './scripts/test-summary.mjs';

// Projects and their file globs are defined once in scripts/test-summary.mjs, which
// scripts/test.mjs also uses to check that every test file on disk was run.
// Run everything (PostgreSQL cluster, Docker engine, all phases) with `npm test`.

const root = path.dirname(fileURLToPath(import.meta.url));
const integration = projectGlobs('integration');
// Each engine's phase runs only the files whose marks name it (see enginesOf). A file run by hand
// with no engine named runs on PGlite whatever its mark.
const engine = process.env.SKILLDOCK_TEST_DB;
if (engine === 'postgres' || engine === 'pglite') integration.exclude.push(...filesNotOn(engine, root, testFilesOnDisk(root).integration));

export default defineConfig({
  resolve: {
    // `@/lib/x` → <repo>/lib/x (tsconfig "paths"). A regex so `@electric-sql/...` is untouched.
    // `server-only` throws outside React's server condition; tests load server modules directly.
    alias: [
      { find: /^@\//, replacement: `${root}/` },
      { find: /^server-only$/, replacement: `${root}/node_modules/server-only/empty.js` },
    ],
  },
  test: {
    root,
    environment: 'node',
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          ...projectGlobs('unit'),
          // Both cores (vitest's default leaves one idle): a third of a unit file's time is its import.
          maxWorkers: 2,
          // A worker keeps the modules it imported for its next file (a fifth off the phase). Hooks a
          // file needs are registered per file by the setup file, never by a helper's import.
          isolate: false,
          setupFiles: ['test/setup/component-hooks.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          ...integration,
          // Two files at once even on two cores (vitest's default is one less than the cores): most
          // of an integration file's time is spent waiting on the engine, PostgreSQL or a child
          // process, and every file has its own database, labels and names, so files never share state.
          maxWorkers: 2,
          // A worker keeps its modules from file to file: the app's module graph is imported once per
          // worker instead of once per file (about two seconds a file). Each file still makes its own
          // services, database and names; a test that changes process-wide state puts it back.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          ...projectGlobs('e2e'),
          testTimeout: 300_000,
          hookTimeout: 600_000,
          // Two files at once: each starts its own server, data dir, firewall table and browser, and
          // much of a file's time is spent waiting (an idle disconnect, a sandbox, a job), which the
          // other file fills. The build is made once, before any file starts.
          globalSetup: ['e2e/helpers/build.ts'],
          setupFiles: ['e2e/helpers/browser-hooks.ts'],
          maxWorkers: 2,
        },
      },
    ],
  },
});
