// The production build the e2e servers run, made once per source state (the fingerprint `npm start`
// uses). The e2e project's global setup calls it before any file starts, so files running side by
// side never build at the same time; a file run on its own builds here if the build is stale.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export async function ensureBuilt(): Promise<void> {
  // A build made elsewhere (e.g. into its own SKILLDOCK_NEXT_DIST while others build the default one).
  if (process.env.SKILLDOCK_E2E_SERVER_JS) return;
  const { buildStamp } = (await import(path.join(ROOT, 'scripts/build-stamp.mjs'))) as { buildStamp: (root: string) => string };
  const stampFile = path.join(ROOT, 'dist/build-stamp');
  const fresh = fs.existsSync(path.join(ROOT, '.next/BUILD_ID')) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === buildStamp(ROOT);
  if (fresh) return;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`production build failed (exit ${r.status})`);
}

/** vitest global setup of the e2e project. */
export default async function setup(): Promise<void> {
  await ensureBuilt();
}
