// A child process for crash tests: installs a GitHub release and, at the named step, writes a marker
// and waits forever, so the test can SIGKILL it there. Usage: node --import tsx <this> '<json>'.
import fs from 'node:fs';
import { openDatabase } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { type InstallStep, installGithubPackage } from '@/lib/github/install/installer';
import { GITHUB_SETTINGS_DEFAULTS } from '@/lib/settings/github-settings';

const cfg = JSON.parse(process.argv[2]) as {
  databaseUrl?: string;
  pgliteDir?: string;
  runtimeDir: string;
  apiBase: string;
  repo: string;
  tag: string;
  pauseAt: InstallStep | 'never';
  marker: string;
};
const database = await openDatabase({ databaseUrl: cfg.databaseUrl, pgliteDir: cfg.pgliteDir ?? '' });
await migrateDatabase(database);
await installGithubPackage(
  {
    db: database.db,
    runtimeDir: cfg.runtimeDir,
    settings: { ...GITHUB_SETTINGS_DEFAULTS, apiBaseUrl: cfg.apiBase, token: null },
    userAgent: 'skilldock-crash-test',
    actor: 'crash-test',
    target: { os: 'linux', arch: 'amd64', libc: 'glibc' },
    onStep: async (step) => {
      if (step !== cfg.pauseAt) return;
      fs.writeFileSync(cfg.marker, step);
      await new Promise(() => undefined);
    },
  },
  { repo: cfg.repo, tag: cfg.tag },
);
fs.writeFileSync(cfg.marker, 'done');
await database.close();
process.exit(0);
