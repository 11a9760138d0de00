// `npm start`: build if the sources changed since the last build, then run the server in this process
// (no wrapper process, so SIGTERM reaches the server).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildStamp } from './build-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
process.env.NODE_ENV = 'production';
process.env.NEXT_TELEMETRY_DISABLED = '1';

const stampFile = path.join(root, 'dist/build-stamp');
const built = fs.existsSync(path.join(root, '.next/BUILD_ID')) && fs.existsSync(path.join(root, 'dist/server.js')) && fs.existsSync(stampFile);
if (!built || fs.readFileSync(stampFile, 'utf8') !== buildStamp(root)) {
  console.log(built ? 'Sources changed since the last build; rebuilding…' : 'No production build yet; building (takes a minute or two)…');
  const r = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
await import(pathToFileURL(path.join(root, 'dist/server.js')).href);
