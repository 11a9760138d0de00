#!/usr/bin/env node
// The `skilldock` command. It runs TypeScript from lib/ with no build step of the package: on first
// use, or when a source file is newer than the bundle, esbuild (a dependency) bundles the command
// into dist/ beside this package; later runs start the bundle directly.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PKG = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COMMANDS = { sync: 'lib/gateways/folder/sync-cli.ts' };
const USAGE = 'Usage: skilldock sync --url <url> --agent <id> --dir <folder> [--token <t>] [--plugin <name>] [--once] [--check] [--poll-ms N]';

function mtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

/** The bundle is stale when it is missing or any input recorded in its metafile changed or vanished. */
function stale(out, meta) {
  const built = mtime(out);
  if (built === null || mtime(meta) === null) return true;
  try {
    const inputs = Object.keys(JSON.parse(fs.readFileSync(meta, 'utf8')).inputs);
    return inputs.some((i) => {
      const m = mtime(path.join(PKG, i));
      return m === null || m > built;
    });
  } catch {
    return true;
  }
}

async function bundle(command) {
  const entry = path.join(PKG, COMMANDS[command]);
  const dist = path.join(PKG, 'dist', 'cli');
  const out = path.join(dist, `${command}.mjs`);
  const meta = path.join(dist, `${command}.meta.json`);
  if (!stale(out, meta)) return out;
  const { build } = await import('esbuild');
  fs.mkdirSync(dist, { recursive: true });
  // Written beside the target and renamed into place, so a run that starts meanwhile never loads half a file.
  const tmp = `${out}.${process.pid}.tmp.mjs`;
  const result = await build({
    entryPoints: [entry],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    metafile: true,
    absWorkingDir: PKG,
    tsconfig: path.join(PKG, 'tsconfig.json'),
    logLevel: 'error',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  fs.renameSync(tmp, out);
  fs.writeFileSync(`${meta}.${process.pid}.tmp`, JSON.stringify(result.metafile));
  fs.renameSync(`${meta}.${process.pid}.tmp`, meta);
  return out;
}

const argv = process.argv.slice(2);
const command = argv[0];
if (!command || !(command in COMMANDS)) {
  process.stderr.write(`${USAGE}\n`);
  process.exit(command === '--help' || command === '-h' ? 0 : 2);
}
const { main } = await import(pathToFileURL(await bundle(command)).href);
process.exitCode = await main(argv);
