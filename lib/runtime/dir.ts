import fs from 'node:fs';
import path from 'node:path';

/** The runtime dir layout. Everything Skilldock installs lives here. */
export interface RuntimeLayout {
  root: string;
  /** pip --target dir, on PYTHONPATH; its bin/ on PATH. */
  pip: string;
  pipBin: string;
  pipCache: string;
  /** npm global prefix; bin/ on PATH, lib/node_modules on NODE_PATH. */
  npmGlobal: string;
  npmBin: string;
  npmModules: string;
  /** GitHub-release binaries. */
  bin: string;
  /** Scratch on the same filesystem as bin/, so renames are atomic (never /tmp). */
  tmp: string;
  /** Record of system packages installed through Skilldock. */
  systemRecord: string;
}

export function runtimeLayout(root: string): RuntimeLayout {
  const r = path.resolve(root);
  return {
    root: r,
    pip: path.join(r, 'pip'),
    pipBin: path.join(r, 'pip', 'bin'),
    pipCache: path.join(r, 'pip-cache'),
    npmGlobal: path.join(r, 'npm-global'),
    npmBin: path.join(r, 'npm-global', 'bin'),
    npmModules: path.join(r, 'npm-global', 'lib', 'node_modules'),
    bin: path.join(r, 'bin'),
    tmp: path.join(r, 'tmp'),
    systemRecord: path.join(r, 'system-packages.json'),
  };
}

/** Creates the layout (0755 dirs, owned by the service user). Idempotent. */
export function ensureRuntimeDir(root: string): RuntimeLayout {
  const l = runtimeLayout(root);
  for (const d of [l.root, l.pip, l.pipCache, l.npmGlobal, l.npmModules, l.npmBin, l.bin, l.tmp]) fs.mkdirSync(d, { recursive: true, mode: 0o755 });
  return l;
}
