import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { projectGlobs } from './scripts/test-summary.mjs';

// Projects and their file globs are defined once in scripts/test-summary.mjs, which
// scripts/test.mjs also uses to check that every test file on disk was run.
// Run everything (PostgreSQL cluster, Docker engine, all phases) with `npm test`.

const root = path.dirname(fileURLToPath(import.meta.url));

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
        test: { name: 'unit', ...projectGlobs('unit') },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          ...projectGlobs('integration'),
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
          fileParallelism: false,
        },
      },
    ],
  },
});
