// Production build: the Next app, then server.ts bundled with esbuild (node_modules stay external).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStamp } from './build-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' } });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

run(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build']);
const esbuild = await import('esbuild');
await esbuild.build({
  entryPoints: ['server.ts'],
  outfile: 'dist/server.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  alias: { '@': root },
  // Modules marked `import 'server-only'` are server code by definition here.
  plugins: [
    {
      name: 'server-only',
      setup(b) {
        b.onResolve({ filter: /^server-only$/ }, () => ({ path: 'server-only', namespace: 'server-only' }));
        b.onLoad({ filter: /.*/, namespace: 'server-only' }, () => ({ contents: '', loader: 'js' }));
      },
    },
  ],
  sourcemap: true,
  logLevel: 'warning',
});
// Worker threads load these files beside server.js: the skill scanner's (lib/skills/scanner/pool.ts)
// and the exec policy's (lib/policy/eval-pool.ts).
for (const [entry, outfile] of [
  ['lib/skills/scanner/worker.ts', 'dist/scan-worker.js'],
  ['lib/policy/eval-worker.ts', 'dist/policy-worker.js'],
]) {
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}
fs.writeFileSync('dist/build-stamp', buildStamp(root));
console.log('Build complete.');
