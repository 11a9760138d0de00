import fs from 'node:fs';
import path from 'node:path';
import { childEnv, cleanPath } from '../core/child-env';
import { joinPathList, splitPathList, which } from '../core/which';
import type { RuntimeLayout } from './dir';

/** Any environment map, process.env included (NodeJS.ProcessEnv insists on NODE_ENV under Next's types). */
export type BaseEnv = Readonly<Record<string, string | undefined>>;

/** Plain strings, and also accepted where a NodeJS.ProcessEnv is expected (runProcess, spawn). */
export type RuntimeEnv = Record<string, string> & NodeJS.ProcessEnv;

function realpathOr(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

/**
 * The global node_modules of the `node` that skill processes will run (the first on PATH, else the
 * one running Skilldock): `<prefix>/lib/node_modules`, where prefix is two levels above the real
 * binary — the same rule npm uses for its default global prefix. Undefined when that folder is absent.
 */
export function systemNodeModules(pathList: string | undefined): string | undefined {
  const node = realpathOr(which('node', pathList) ?? process.execPath);
  const dir = path.join(path.dirname(path.dirname(node)), 'lib', 'node_modules');
  try {
    return fs.statSync(dir).isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}

export interface RuntimeEnvEntry {
  name: string;
  value: string;
  why: string;
}

function computeEntries(layout: RuntimeLayout, base: BaseEnv): RuntimeEnvEntry[] {
  // The host's folders without what `npm start` put in front of them (Skilldock's own node_modules/.bin).
  const basePath = cleanPath(base.PATH, [layout.root]);
  return [
    {
      name: 'PATH',
      value: joinPathList([layout.npmBin, layout.pipBin, layout.bin, ...splitPathList(basePath)]),
      why: 'CLIs installed with npm, pip and from GitHub releases are callable by name, ahead of the host’s own programs.',
    },
    {
      name: 'PYTHONPATH',
      value: joinPathList([layout.pip, ...splitPathList(base.PYTHONPATH)]),
      why: 'Python imports packages installed into the runtime dir first, then anything already on PYTHONPATH.',
    },
    {
      name: 'PIP_TARGET',
      value: layout.pip,
      why: '`pip install` run by a skill writes into the runtime dir, never into the system Python (no PEP 668 error, no root needed).',
    },
    { name: 'PIP_CACHE_DIR', value: layout.pipCache, why: 'pip’s download cache stays in the runtime dir.' },
    { name: 'PIP_DISABLE_PIP_VERSION_CHECK', value: '1', why: 'pip does not contact the index to check for a newer pip on every run.' },
    {
      name: 'NPM_CONFIG_PREFIX',
      value: layout.npmGlobal,
      why: '`npm install -g` run by a skill writes into the runtime dir.',
    },
    {
      name: 'NODE_PATH',
      value: joinPathList([layout.npmModules, systemNodeModules(basePath), ...splitPathList(base.NODE_PATH)]),
      why: 'require() finds packages installed into the runtime dir first, then the host’s global node_modules.',
    },
  ];
}

/**
 * The environment of every skill process: the allowlisted variables of the base environment
 * (childEnv: never the server's secrets) with the runtime dir's variables applied. The one place
 * these values are computed.
 */
export function runtimeEnv(layout: RuntimeLayout, base: BaseEnv = process.env): RuntimeEnv {
  const env: Record<string, string> = childEnv({}, { base });
  for (const e of computeEntries(layout, base)) env[e.name] = e.value;
  return env as RuntimeEnv;
}

/**
 * The environment Skilldock's own tools run with (python3 for pip, npm, apt-get, getconf…): the
 * allowlisted base with the host's PATH, never the runtime dir's bins, which a package install
 * can fill with a program named like one of them.
 */
export function toolEnv(layout: RuntimeLayout, base: BaseEnv = process.env, extra: BaseEnv = {}): RuntimeEnv {
  return childEnv(extra, { base, excludeFromPath: [layout.root] }) as RuntimeEnv;
}

/** The variables runtimeEnv sets, with their effective values and why, for the Runtime page. */
export function describeRuntimeEnv(layout: RuntimeLayout, base: BaseEnv = process.env): RuntimeEnvEntry[] {
  return computeEntries(layout, base);
}
