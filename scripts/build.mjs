// Production build: the Next app, then server.ts bundled with esbuild (node_modules stay external).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStamp } from './build-stamp.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

// Next's build, its output passed through and watched: a "dynamic filesystem access" warning means
// Turbopack traced the whole project into the server bundle, so the build fails on it (mark the path
// with /*turbopackIgnore: true*/).
const TRACED = 'Dynamic filesystem access';
const traced = await new Promise((resolve) => {
  const p = spawn(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
  });
  let count = 0;
  let tail = '';
  const watch = (out) => (chunk) => {
    out.write(chunk);
    const text = tail + chunk.toString();
    count += text.split(TRACED).length - 1;
    // A phrase split between two chunks is found in the next one (too short to be counted twice).
    tail = text.slice(-(TRACED.length - 1));
  };
  p.stdout.on('data', watch(process.stdout));
  p.stderr.on('data', watch(process.stderr));
  p.on('close', (code) => {
    if (code !== 0) process.exit(code ?? 1);
    resolve(count);
  });
});
if (traced > 0) {
  process.stderr.write(`\nbuild: ${traced} "${TRACED}" warning(s) above; mark each path with /*turbopackIgnore: true*/.\n`);
  process.exit(1);
}
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
// and the exec policy's (lib/policy/engine/pool.ts).
for (const [entry, outfile] of [
  ['lib/skills/scanner/worker.ts', 'dist/scan-worker.js'],
  ['lib/policy/engine/worker.ts', 'dist/policy-worker.js'],
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
