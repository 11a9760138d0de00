import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isAppError } from '../../core/errors';
import { runProcess } from '../../core/process';
import { isExecutableFile, joinPathList, splitPathList, which } from '../../core/which';
import { runtimeLayout } from '../dir';
import { runtimeEnv } from '../env';
import { formatSpec, parsePackageSpec } from '../spec';
import type { ManagerContext, PackageSpec } from '../types';
import { PY_IMPORT_PATH, pipImportName } from './aliases';
import type { CheckedDep, CheckOptions, DepStatus, ResolvedDep } from './types';

/**
 * Availability check. One python3 process for all pip
 * deps and one node process for all npm deps, each running a FIXED script that receives the names
 * as one JSON argv element; binaries are looked up on the runtime PATH without a process. Names are
 * validated against the spec grammar again before anything runs. Never throws for a check that
 * cannot run: the dep gets status `unknown` with the reason.
 */

// find_spec() of a top-level name locates the module without running it. sys.path[0] ('' for -c,
// the current directory) is dropped so the cwd cannot shadow anything.
const PY_CHECK = `import sys, json, importlib.util
if sys.path and sys.path[0] in ('', '.'):
    sys.path.pop(0)
try:
    import importlib.metadata as md
except Exception:
    md = None
out = {}
for name, dist in json.loads(sys.argv[1]):
    r = {}
    try:
        s = importlib.util.find_spec(name)
        r['found'] = s is not None
        if s is not None:
            locs = list(s.submodule_search_locations or [])
            r['origin'] = s.origin if s.origin and s.origin != 'namespace' else (locs[0] if locs else None)
    except Exception as e:
        r['found'] = False
        r['error'] = (type(e).__name__ + ': ' + str(e))[:300]
    if r.get('found') and md is not None:
        try:
            r['version'] = md.version(dist)
        except Exception:
            pass
    out[name] = r
sys.stdout.write(json.dumps(out))
`;

// A package is present when <dir>/<name>/package.json exists on a NODE_PATH entry (this also covers
// ESM-only packages without "main"), else when require.resolve finds it from those entries.
const NODE_CHECK = `const fs = require('fs'); const path = require('path');
const names = JSON.parse(process.argv[1]);
const dirs = (process.env.NODE_PATH || '').split(path.delimiter).filter((d) => path.isAbsolute(d));
const out = {};
for (const name of names) {
  const r = { found: false };
  for (const d of dirs) {
    const pj = path.join(d, name, 'package.json');
    if (fs.existsSync(pj)) {
      r.found = true; r.path = path.dirname(pj);
      try { r.version = JSON.parse(fs.readFileSync(pj, 'utf8')).version; } catch (e) {}
      break;
    }
  }
  if (!r.found && dirs.length) {
    for (const target of [name + '/package.json', name]) {
      try { r.path = require.resolve(target, { paths: dirs }); r.found = true; break; } catch (e) { r.error = e.code || String(e.message).slice(0, 300); }
    }
  }
  out[name] = r;
}
process.stdout.write(JSON.stringify(out));
`;

interface ProbeResult {
  found?: boolean;
  origin?: string;
  path?: string;
  version?: string;
  error?: string;
}
type Probe = { ok: true; results: Record<string, ProbeResult> } | { ok: false; reason: string };

async function probe(
  program: string | null,
  label: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<Probe> {
  if (!program) return { ok: false, reason: `${label} is not available on the runtime PATH` };
  try {
    const res = await runProcess(program, args, { env, cwd, timeoutMs, signal, maxOutputBytes: 1024 * 1024, killGraceMs: 500 });
    if (res.timedOut) return { ok: false, reason: `the ${label} check did not finish within ${timeoutMs} ms` };
    if (res.aborted) return { ok: false, reason: `the ${label} check was cancelled` };
    if (res.code !== 0)
      return { ok: false, reason: `the ${label} check failed (exit ${res.code ?? res.signal}): ${res.stderr.trim().split('\n').slice(-1)[0] ?? ''}`.trim() };
    const parsed = JSON.parse(res.stdout) as unknown;
    if (!parsed || typeof parsed !== 'object') return { ok: false, reason: `the ${label} check printed no result` };
    return { ok: true, results: parsed as Record<string, ProbeResult> };
  } catch (e) {
    return { ok: false, reason: `the ${label} check could not run: ${(e as Error).message}` };
  }
}

/** Re-validates a spec with the one grammar; returns the error message when it is not valid. */
function invalid(spec: PackageSpec): string | null {
  try {
    parsePackageSpec(formatSpec(spec), { context: 'deps' });
    return null;
  } catch (e) {
    return isAppError(e) ? e.message : String(e);
  }
}

export async function checkDeps(ctx: ManagerContext, deps: readonly ResolvedDep[], opts: CheckOptions = {}): Promise<CheckedDep[]> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const layout = runtimeLayout(ctx.runtimeDir);
  const env = runtimeEnv(layout, opts.baseEnv ?? process.env);
  if (opts.skillDir) {
    const skill = path.resolve(/*turbopackIgnore: true*/ opts.skillDir);
    env.PYTHONPATH = joinPathList([layout.pip, path.join(skill, 'scripts'), skill, ...splitPathList(env.PYTHONPATH)]);
  }
  const cwd = fs.existsSync(layout.root) ? layout.root : os.tmpdir();
  const result: CheckedDep[] = deps.map((d) => ({ ...d, status: 'unknown' as DepStatus, detail: '' }));
  const set = (i: number, status: DepStatus, detail: string) => {
    result[i].status = status;
    result[i].detail = detail;
  };

  const pip: { i: number; name: string; dist: string }[] = [];
  const npm: { i: number; name: string }[] = [];
  result.forEach((d, i) => {
    const bad = invalid(d.spec);
    if (bad) return set(i, 'unknown', `not checked: ${bad}`);
    if (d.spec.manager === 'pip') {
      const name = pipImportName(d.spec, d.importName);
      if (!PY_IMPORT_PATH.test(name)) return set(i, 'unknown', `not checked: "${name.slice(0, 80)}" is not a Python module name`);
      result[i].importName = name;
      pip.push({ i, name, dist: d.spec.name });
    } else if (d.spec.manager === 'npm') {
      npm.push({ i, name: d.spec.name });
    } else if (d.spec.manager === 'github') {
      const bin = d.spec.name.split('/').pop()!;
      const p = path.join(layout.bin, bin);
      if (isExecutableFile(p)) set(i, 'ok', `installed at ${p}`);
      else set(i, 'missing', `no "${bin}" in ${layout.bin}; GitHub-release installs arrive with the GitHub tab`);
    } else {
      const found = which(d.spec.name, env.PATH);
      if (found) set(i, 'ok', `found at ${found}`);
      else set(i, 'missing', `no "${d.spec.name}" program on the runtime PATH`);
    }
  });

  const python = opts.python ?? 'python3';
  const node = opts.node ?? 'node';
  const [py, js] = await Promise.all([
    pip.length
      ? probe(which(python, env.PATH), python, ['-c', PY_CHECK, JSON.stringify(pip.map((p) => [p.name, p.dist]))], env, cwd, timeoutMs, ctx.signal)
      : null,
    npm.length ? probe(which(node, env.PATH), node, ['-e', NODE_CHECK, '--', JSON.stringify(npm.map((n) => n.name))], env, cwd, timeoutMs, ctx.signal) : null,
  ]);

  for (const p of pip) {
    if (!py?.ok) {
      set(p.i, 'unknown', py ? py.reason : 'not checked');
      continue;
    }
    const r = py.results[p.name];
    if (r?.found) set(p.i, 'ok', [`import ${p.name}`, r.version ? `version ${r.version}` : '', r.origin ? `at ${r.origin}` : ''].filter(Boolean).join(', '));
    else if (r?.error) set(p.i, 'missing', `import ${p.name} cannot be located: ${r.error}`);
    else set(p.i, 'missing', `no module named ${p.name} on the runtime PYTHONPATH`);
  }
  for (const n of npm) {
    if (!js?.ok) {
      set(n.i, 'unknown', js ? js.reason : 'not checked');
      continue;
    }
    const r = js.results[n.name];
    if (r?.found) set(n.i, 'ok', [r.version ? `version ${r.version}` : '', r.path ? `at ${r.path}` : ''].filter(Boolean).join(', ') || 'found');
    else set(n.i, 'missing', `${n.name} is not installed on the runtime NODE_PATH`);
  }
  ctx.log?.(
    `deps check: ${result.filter((r) => r.status === 'ok').length} ok, ${result.filter((r) => r.status === 'missing').length} missing, ${result.filter((r) => r.status === 'unknown').length} unknown`,
    'info',
  );
  return result;
}
