import path from 'node:path';
import { parsePackageSpec, specLockKey } from '../spec';
import type { PackageSpec } from '../types';
import { aliasTable, pipSpecForImport } from './aliases';
import { extractJsImports, packageOfSpecifier } from './scan-js';
import { extractPythonImports } from './scan-python';
import { fallbackPythonStdlib, nodeBuiltinModules } from './stdlib';
import type { DepAlias, DepDiagnostic, FileToScan, ScannedDep, ScannedDepKind } from './types';

/** Dependency auto-scan over in-memory files. Pure. */
export interface ScanOptions {
  /** Python stdlib module names; default: the embedded Python 3.11 list (use `pythonStdlibModules()`). */
  pythonStdlib?: ReadonlySet<string> | readonly string[];
  /** Extra local module names (files or folders of the skill that were not passed as files). */
  localModules?: Iterable<string>;
  /** Admin-edited import → pip entries on top of the built-in table (validated; throws AppError on bad rows). */
  aliasOverrides?: Readonly<Record<string, string>>;
}

export interface ScanResult {
  deps: ScannedDep[];
  diagnostics: DepDiagnostic[];
}

// process-wide: a constant table, never written
const JS_EXT = new Set(['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx']);
// process-wide: a constant table, never written
const PY_EXT = new Set(['.py', '.pyw']);

export interface Shebang {
  /** The interpreter's binary name (`python3` for `#!/usr/bin/env -S python3 -u`). */
  interpreter: string;
}

/** Reads a `#!` line: the interpreter binary, looking through `env` (and `env -S`, `-i`, `-u NAME`, `VAR=x`). */
export function parseShebang(firstLine: string): Shebang | null {
  const m = /^#!(.*)$/.exec(firstLine.replace(/\r$/, ''));
  if (!m) return null;
  const tokens = m[1].trim().split(/\s+/).filter(Boolean);
  if (!tokens.length) return null;
  let interpreter = path.posix.basename(tokens[0]);
  if (interpreter === 'env') {
    let rest = tokens.slice(1);
    // `env -S "python3 -u"` on one shebang line arrives as separate tokens; split any -Sxyz form.
    rest = rest.flatMap((t) => (/^-S./.test(t) ? ['-S', t.slice(2)] : t.startsWith('--split-string=') ? ['-S', t.slice(15)] : [t]));
    let found: string | undefined;
    for (let i = 0; i < rest.length; i++) {
      const t = rest[i].replace(/^["']|["']$/g, '');
      if (t === '-u' || t === '--unset' || t === '-C' || t === '--chdir') {
        i++;
        continue;
      }
      if (t.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) continue;
      found = t;
      break;
    }
    if (!found) return null;
    interpreter = path.posix.basename(found);
  }
  return interpreter ? { interpreter } : null;
}

const isPythonInterpreter = (name: string) => /^(python|pypy)(\d+(\.\d+)?)?$/.test(name);
const isNodeInterpreter = (name: string) => /^(node|nodejs|deno|bun|tsx|ts-node)$/.test(name);

export type ScriptLanguage = 'python' | 'js' | 'other';

/** How a file is scanned: by extension, else (extensionless) by its shebang. */
export function scriptLanguage(filePath: string, content: string): ScriptLanguage {
  const ext = path.posix.extname(filePath).toLowerCase();
  if (PY_EXT.has(ext)) return 'python';
  if (JS_EXT.has(ext)) return 'js';
  if (ext === '') {
    const sb = parseShebang(content.slice(0, content.indexOf('\n') === -1 ? undefined : content.indexOf('\n')));
    if (sb && isPythonInterpreter(sb.interpreter)) return 'python';
    if (sb && isNodeInterpreter(sb.interpreter)) return 'js';
  }
  return 'other';
}

/**
 * Module names the skill provides itself: every `x.py` (or `x.so`) and every folder among the given
 * paths (a path ending in `/` is a folder).
 */
export function localModulesOf(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const p of paths) {
    const parts = p.split('/').filter(Boolean);
    parts.slice(0, p.endsWith('/') ? parts.length : -1).forEach((d) => out.add(d));
    if (p.endsWith('/')) continue;
    const base = parts[parts.length - 1] ?? '';
    const ext = path.posix.extname(base);
    if (PY_EXT.has(ext) || ext === '.so' || ext === '.pyd') out.add(base.split('.')[0]);
  }
  return out;
}

/** Scans the given files. Deps are deduplicated by spec, keeping every occurrence in `where`. */
export function scanSkillFiles(files: readonly FileToScan[], opts: ScanOptions = {}): ScanResult {
  const stdlib = opts.pythonStdlib ? new Set(opts.pythonStdlib) : fallbackPythonStdlib();
  const builtins = nodeBuiltinModules();
  const table = aliasTable(opts.aliasOverrides);
  const local = localModulesOf(files.map((f) => f.path));
  for (const m of opts.localModules ?? []) local.add(m);

  const byKey = new Map<string, ScannedDep>();
  const diagnostics: DepDiagnostic[] = [];
  const reported = new Set<string>();
  const add = (kind: ScannedDepKind, spec: PackageSpec, file: string, line: number, importName?: string, alias?: DepAlias) => {
    const key = `${kind}|${specLockKey(spec)}`;
    const existing = byKey.get(key);
    if (existing) {
      existing.where.push({ file, line });
      return;
    }
    byKey.set(key, { kind, ...(importName ? { importName } : {}), spec, file, line, where: [{ file, line }], ...(alias ? { alias } : {}) });
  };
  const reject = (file: string, line: number, raw: string, what: string, e: unknown) => {
    if (reported.has(`${what}|${raw}`)) return;
    reported.add(`${what}|${raw}`);
    diagnostics.push({ key: 'scan', file, line, raw, message: `${what} "${raw}" is not turned into a dependency: ${(e as Error).message}` });
  };

  for (const f of files) {
    const content = f.content.replace(/^\uFEFF/, '');
    const nl = content.indexOf('\n');
    const sb = parseShebang(nl === -1 ? content : content.slice(0, nl));
    if (sb) {
      try {
        add('binary', parsePackageSpec(sb.interpreter, { context: 'deps' }), f.path, 1);
      } catch (e) {
        reject(f.path, 1, sb.interpreter, 'The shebang interpreter', e);
      }
    }
    const lang = scriptLanguage(f.path, content);
    if (lang === 'python') {
      for (const imp of extractPythonImports(content)) {
        if (stdlib.has(imp.module) || local.has(imp.module)) continue;
        try {
          const { spec, alias } = pipSpecForImport(imp.module, table);
          add(
            'pip',
            spec,
            f.path,
            imp.line,
            imp.module,
            alias ? { from: alias.import, to: alias.pip, ...(alias.hint ? { hint: alias.hint } : {}) } : undefined,
          );
        } catch (e) {
          reject(f.path, imp.line, imp.module, 'The Python import', e);
        }
      }
    } else if (lang === 'js') {
      for (const imp of extractJsImports(content)) {
        const pkg = packageOfSpecifier(imp.specifier);
        if (!pkg || builtins.has(pkg)) continue;
        try {
          add('npm', parsePackageSpec(`npm:${pkg}`, { context: 'deps' }), f.path, imp.line, pkg);
        } catch (e) {
          reject(f.path, imp.line, imp.specifier, 'The module specifier', e);
        }
      }
    }
  }
  return { deps: [...byKey.values()], diagnostics };
}
