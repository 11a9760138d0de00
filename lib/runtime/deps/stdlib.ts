import { builtinModules } from 'node:module';
import { runProcess } from '../../core/process';
import { PYTHON_STDLIB_FALLBACK } from './stdlib-data';

/** A fixed script: no value is ever interpolated into it. Needs Python ≥ 3.10. */
const STDLIB_SCRIPT = 'import sys, json; print(json.dumps(sorted(sys.stdlib_module_names)))';
const PY_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface PythonStdlib {
  /** Top-level module names of the standard library. */
  modules: ReadonlySet<string>;
  /** `interpreter`: asked the interpreter (its list, plus the embedded 3.11 list); `fallback`: embedded list only. */
  source: 'interpreter' | 'fallback';
  /** Why the fallback was used, or which interpreter answered. */
  detail: string;
}

// process-wide: a constant table, never written
const FALLBACK_SET: ReadonlySet<string> = new Set(PYTHON_STDLIB_FALLBACK);
// process-wide: a fact of the interpreter binary at that path, the same for every service
const memo = new Map<string, Promise<PythonStdlib>>();

async function ask(python: string): Promise<PythonStdlib> {
  const fallback = (why: string): PythonStdlib => ({ modules: FALLBACK_SET, source: 'fallback', detail: why });
  let res: Awaited<ReturnType<typeof runProcess>>;
  try {
    res = await runProcess(python, ['-c', STDLIB_SCRIPT], { timeoutMs: 5000, maxOutputBytes: 256 * 1024 });
  } catch (e) {
    return fallback(`${python} could not be run (${(e as Error).message}); using the embedded Python 3.11 list`);
  }
  if (res.timedOut) return fallback(`${python} did not answer within 5 s; using the embedded Python 3.11 list`);
  if (res.code !== 0) {
    return fallback(`${python} has no sys.stdlib_module_names (Python older than 3.10?); using the embedded Python 3.11 list`);
  }
  try {
    const names = JSON.parse(res.stdout) as unknown;
    if (!Array.isArray(names) || names.length < 100 || !names.every((n) => typeof n === 'string' && PY_NAME.test(n))) {
      return fallback(`${python} printed an unexpected module list; using the embedded Python 3.11 list`);
    }
    // Names that were stdlib in 3.11 but were removed later (imp, distutils, asynchat…) are still never
    // pip packages to install, so the embedded list is kept as well.
    return { modules: new Set([...names, ...PYTHON_STDLIB_FALLBACK]), source: 'interpreter', detail: `from ${python}` };
  } catch {
    return fallback(`${python} printed something that is not JSON; using the embedded Python 3.11 list`);
  }
}

/**
 * The standard-library module names of `python` (its `sys.stdlib_module_names`), asked once per
 * process and interpreter name; the embedded Python 3.11 list when the interpreter is missing or older
 * than 3.10. Never rejects.
 */
export function pythonStdlib(python = 'python3'): Promise<PythonStdlib> {
  let p = memo.get(python);
  if (!p) {
    p = ask(python);
    memo.set(python, p);
  }
  return p;
}

export async function pythonStdlibModules(python = 'python3'): Promise<ReadonlySet<string>> {
  return (await pythonStdlib(python)).modules;
}

/** The embedded list, for pure callers (the scanner's default). */
export function fallbackPythonStdlib(): ReadonlySet<string> {
  return FALLBACK_SET;
}

// process-wide: a constant table, never written
const NODE_BUILTINS: ReadonlySet<string> = new Set(builtinModules.map((m) => m.split('/')[0]));

/** Node core module names (top-level segment: `fs/promises` counts as `fs`). */
export function nodeBuiltinModules(): ReadonlySet<string> {
  return NODE_BUILTINS;
}
