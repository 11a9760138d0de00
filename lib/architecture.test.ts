import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, resolveLocal, sourceFilesUnder } from '@/test/helpers/local-modules';

const ROOT = REPO_ROOT;
const LIB = path.join(ROOT, 'lib');
/** The edge of the app: the only part of lib/ that may speak Next, React or NextAuth. */
const EDGE = [path.join(LIB, 'http') + path.sep];
const FRAMEWORK = /^(next|react|react-dom|next-auth|next-safe-action)(\/|$)/;

/** Every module specifier of a file: imports, `import type`, `export … from`, dynamic imports. */
export function specifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

export type Graph = Map<string, string[]>;

/** The import graph of the given files and every local file they reach (db/, lib/…). */
export function importGraph(entries: string[]): Graph {
  const graph: Graph = new Map();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop()!;
    if (graph.has(file)) continue;
    const deps = specifiers(fs.readFileSync(file, 'utf8'))
      .map((s) => resolveLocal(file, s))
      .filter((d): d is string => !!d && !d.includes(`${path.sep}node_modules${path.sep}`));
    graph.set(file, [...new Set(deps)]);
    queue.push(...deps);
  }
  return graph;
}

/** Strongly connected components with more than one file (or a file importing itself): their files and one concrete cycle through them. */
export function findCycles(graph: Graph): { files: string[]; cycle: string[] }[] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(comp);
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return components.map((comp) => ({ files: comp.sort(), cycle: cycleWithin(graph, new Set(comp)) }));
}

/** A shortest path from the component's first file back to itself, staying inside the component. */
function cycleWithin(graph: Graph, comp: Set<string>): string[] {
  const start = [...comp].sort()[0];
  const prev = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!comp.has(w)) continue;
      if (w === start) {
        const pathBack = [v];
        while (pathBack[0] !== start) pathBack.unshift(prev.get(pathBack[0])!);
        return [...pathBack, start];
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

const rel = (p: string) => path.relative(ROOT, p);

/**
 * The domains of lib/ (its folders) and the domains each may import, lowest floors first. A domain
 * never imports one that imports it (directly or not): a new import outside its row fails here and
 * is either moved down or added to the row on purpose. Files at the top of lib/ are the
 * composition root (services, workers, shutdown) and may import any domain; only the edge (api,
 * http) imports them back.
 */
export const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  core: [],
  docs: [],
  secrets: ['core'],
  cluster: ['core'],
  docker: ['core'],
  archive: ['core'],
  audit: [],
  auth: ['audit', 'core'],
  settings: ['audit', 'auth', 'core', 'secrets'],
  runtime: ['core', 'settings'],
  jobs: ['audit', 'auth', 'core', 'docker'],
  network: ['audit', 'auth', 'cluster', 'core', 'secrets'],
  github: ['archive', 'audit', 'auth', 'core', 'runtime', 'secrets', 'settings'],
  packages: ['audit', 'auth', 'core', 'github', 'jobs', 'runtime', 'secrets', 'settings'],
  skills: ['archive', 'audit', 'auth', 'cluster', 'core', 'jobs', 'packages', 'runtime', 'secrets', 'settings'],
  sandbox: ['audit', 'auth', 'cluster', 'core', 'docker', 'jobs', 'network', 'secrets', 'skills'],
  installs: ['audit', 'auth', 'core', 'jobs', 'runtime', 'sandbox', 'secrets', 'settings', 'skills'],
  terminal: ['audit', 'auth', 'cluster', 'core', 'sandbox', 'settings'],
  policy: ['audit', 'auth', 'core', 'sandbox', 'settings', 'skills'],
  agents: ['audit', 'auth', 'cluster', 'core', 'installs', 'jobs', 'policy', 'sandbox', 'skills'],
  gateways: ['agents', 'audit', 'auth', 'cluster', 'core', 'docker', 'jobs', 'sandbox', 'secrets', 'skills'],
  http: ['(root)', 'audit', 'auth', 'core', 'terminal'],
  api: [
    '(root)',
    'agents',
    'audit',
    'auth',
    'cluster',
    'core',
    'docs',
    'gateways',
    'github',
    'http',
    'installs',
    'jobs',
    'network',
    'packages',
    'policy',
    'sandbox',
    'settings',
    'skills',
    'terminal',
  ],
};

/**
 * Domains split into parts (subfolders): the few files each keeps at its top, and the parts each part
 * may import (a file at the top is a part of its own, named by its file name). A new file goes into
 * the part it belongs to; an import outside its part's row fails here.
 */
export const PARTS: Readonly<Record<string, { top: readonly string[]; mayImport: Readonly<Record<string, readonly string[]>> }>> = {
  policy: {
    // The shapes every part shares, the service object the API calls, decide and replay, the process's engine, and the API's own test.
    top: ['decide.ts', 'policy-api.int.test.ts', 'runtime.ts', 'service.ts', 'types.ts'],
    mayImport: {
      'types.ts': [],
      shell: ['types.ts'],
      rules: ['shell', 'types.ts'],
      engine: ['rules', 'shell', 'types.ts'],
      skills: ['engine', 'types.ts'],
      corpus: ['types.ts'],
      profiles: ['types.ts'],
      approvals: ['types.ts'],
      'decide.ts': ['profiles', 'types.ts'],
      exec: ['approvals', 'decide.ts', 'profiles', 'rules', 'types.ts'],
      'runtime.ts': ['decide.ts', 'engine', 'profiles', 'rules', 'types.ts'],
      'service.ts': ['approvals', 'decide.ts', 'engine', 'exec', 'profiles', 'runtime.ts'],
    },
  },
  installs: {
    // The API's schema, view and service, and the API's own tests.
    top: ['api-fanout.int.test.ts', 'api.int.test.ts', 'schema.ts', 'service.ts', 'view.ts'],
    mayImport: {
      'schema.ts': [],
      records: [],
      plan: [],
      docker: [],
      gating: ['records'],
      catalog: ['docker', 'plan', 'records'],
      steps: ['catalog', 'docker', 'plan'],
      generations: ['docker', 'plan', 'schema.ts', 'steps'],
      jobs: ['docker', 'generations', 'records', 'steps'],
      recovery: ['docker', 'generations', 'jobs', 'records'],
      'view.ts': ['records', 'schema.ts'],
      'service.ts': ['catalog', 'generations', 'jobs', 'records', 'schema.ts', 'view.ts'],
    },
  },
};

/** The part of a file inside a domain folder: its first folder there, or its own name at the top; null outside. */
export function partOf(domainDir: string, file: string): string | null {
  const r = path.relative(domainDir, file);
  return r.startsWith('..') ? null : r.split(path.sep)[0];
}

/** The domain of a file under lib/: its first folder, or "(root)" for the files at the top. */
export function domainOf(file: string): string | null {
  const r = path.relative(LIB, file);
  if (r.startsWith('..')) return null;
  const parts = r.split(path.sep);
  return parts.length > 1 ? parts[0] : '(root)';
}

/** Every import from one domain (or part, by `unitOf`) into another that its row does not allow, with the files that make it. */
export function domainViolations(graph: Graph, table: Readonly<Record<string, readonly string[]>>, unitOf = domainOf): string[] {
  const out: string[] = [];
  for (const [file, deps] of graph) {
    const from = unitOf(file);
    if (!from || from === '(root)') continue;
    for (const dep of deps) {
      const to = unitOf(dep);
      if (!to || to === from) continue;
      const allowed = table[from];
      if (!allowed) out.push(`${rel(file)}: "${from}" has no row in its table`);
      else if (!allowed.includes(to)) out.push(`${rel(file)} imports ${rel(dep)}: "${from}" may not import "${to}"`);
    }
  }
  return [...new Set(out)].sort();
}

/** Constructors whose top-level instances are plain values, not state (a pattern, an encoder). */
const VALUE_CLASSES = new Set(['RegExp', 'TextEncoder', 'TextDecoder', 'URL']);

/** The first `new` of a state-holding class in an initializer, not looking into function bodies (those run later, per call). */
function stateNew(node: ts.Node): string | null {
  if (ts.isFunctionLike(node) || ts.isClassLike(node)) return null;
  if (ts.isNewExpression(node)) {
    const name = node.expression.getText();
    if (!VALUE_CLASSES.has(name)) return `new ${name}`;
  }
  let found: string | null = null;
  node.forEachChild((c) => {
    found ??= stateNew(c);
  });
  return found;
}

/**
 * Module-level state in one file's text: every top-level `let`/`var`, and every top-level `const`
 * that holds a new collection or object (`new Map`, `new WeakMap`, `new Set`, a cache class…) or an
 * empty array or object to fill later, unless its statement carries a `process-wide:` comment
 * saying why one per process is right. Returns `name (what)` per finding.
 */
export function moduleState(text: string): string[] {
  const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    const comments = ts.getLeadingCommentRanges(text, st.getFullStart()) ?? [];
    if (comments.some((c) => text.slice(c.pos, c.end).includes('process-wide:'))) continue;
    const isConst = (st.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const d of st.declarationList.declarations) {
      const name = d.name.getText();
      if (!isConst) {
        out.push(`${name} (let)`);
        continue;
      }
      if (!d.initializer) continue;
      let init: ts.Expression = d.initializer;
      while (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init) || ts.isNonNullExpression(init))
        init = init.expression;
      const made = stateNew(init);
      if (made) out.push(`${name} (${made})`);
      else if (ts.isArrayLiteralExpression(init) && init.elements.length === 0) out.push(`${name} (empty array)`);
      else if (ts.isObjectLiteralExpression(init) && init.properties.length === 0) out.push(`${name} (empty object)`);
    }
  }
  return out;
}

/** The operations' reaches into the database past their domain's service object: `services.database.db` in one file's text. */
export function databaseReaches(text: string): number {
  return text.match(/\bservices\.database\.db\b/g)?.length ?? 0;
}

// The ceiling only goes down: when a domain becomes a service object, lower it to the new count.
const DATABASE_REACH_CEILING = 46;

// Each test reads or parses every file of lib/: seconds on a busy machine, not milliseconds.
describe('architecture of lib/', { timeout: 30_000 }, () => {
  const files = sourceFilesUnder(LIB, { tests: true });

  it('has no import circle (type-only imports included)', () => {
    const cycles = findCycles(importGraph(files)).map(
      (c) =>
        `${c.cycle.map(rel).join(' → ')}${c.files.length > 2 ? ` (one of the circles among ${c.files.length} files: ${c.files.map(rel).join(', ')})` : ''}`,
    );
    expect(cycles, `import circles:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('imports no web framework outside the edge (lib/http)', () => {
    const offenders = files
      .filter((f) => !EDGE.some((e) => f.startsWith(e)))
      .flatMap((f) =>
        specifiers(fs.readFileSync(f, 'utf8'))
          .filter((s) => FRAMEWORK.test(s))
          .map((s) => `${rel(f)} imports ${s}`),
      );
    expect(offenders).toEqual([]);
  });

  it('imports across domains only as the table allows, and the table has no circle', () => {
    const prod = files.filter((f) => !/\.(test|int\.test|fixtures?)\.ts$/.test(f));
    expect(domainViolations(importGraph(prod), MAY_IMPORT)).toEqual([]);
    const tableGraph: Graph = new Map(Object.entries(MAY_IMPORT).map(([d, to]) => [d, to.filter((t) => t !== '(root)')]));
    expect(findCycles(tableGraph)).toEqual([]);
  });

  it('fails on a planted upward import', () => {
    const f = (d: string, n: string) => path.join(LIB, d, n);
    const g: Graph = new Map([
      [f('sandbox', 'a.ts'), [f('skills', 'b.ts'), f('sandbox', 'c.ts')]],
      [f('skills', 'b.ts'), [f('installs', 'd.ts')]],
      [f('installs', 'd.ts'), [f('sandbox', 'a.ts')]],
      [f('sandbox', 'c.ts'), []],
    ]);
    expect(domainViolations(g, MAY_IMPORT)).toEqual(['lib/skills/b.ts imports lib/installs/d.ts: "skills" may not import "installs"']);
  });

  it('keeps each domain split into parts in its parts: a few files at its top, imports between parts as its table allows', () => {
    for (const [domain, { top, mayImport }] of Object.entries(PARTS)) {
      const dir = path.join(LIB, domain);
      const entries = fs.readdirSync(dir, { withFileTypes: true });
      const loose = entries.filter((e) => e.isFile() && !top.includes(e.name)).map((e) => `lib/${domain}/${e.name}`);
      expect(loose, `files at the top of lib/${domain}: each belongs in one of its parts`).toEqual([]);
      const unplaced = entries.filter((e) => e.isDirectory() && !mayImport[e.name]).map((e) => `lib/${domain}/${e.name}/`);
      expect(unplaced, `parts of lib/${domain} with no row in PARTS`).toEqual([]);
      const prod = files.filter((f) => f.startsWith(dir + path.sep) && !/\.(test|int\.test|fixtures?)\.ts$/.test(f));
      expect(domainViolations(importGraph(prod), mayImport, (f) => partOf(dir, f))).toEqual([]);
      const tableGraph: Graph = new Map(Object.entries(mayImport).map(([p, to]) => [p, [...to]]));
      expect(findCycles(tableGraph)).toEqual([]);
    }
  });

  it('fails on a planted import between parts that the table does not allow', () => {
    const dir = path.join(LIB, 'policy');
    const f = (n: string) => path.join(dir, n);
    const g: Graph = new Map([
      [f('shell/words.ts'), [f('rules/risk.ts'), f('types.ts'), path.join(LIB, 'core', 'errors.ts')]],
      [f('rules/risk.ts'), [f('shell/words.ts')]],
    ]);
    expect(domainViolations(g, PARTS.policy.mayImport, (x) => partOf(dir, x))).toEqual([
      'lib/policy/shell/words.ts imports lib/policy/rules/risk.ts: "shell" may not import "rules"',
    ]);
  });

  it('finds a planted circle and a self-import', () => {
    const g: Graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
      ['e', ['e']],
    ]);
    expect(
      findCycles(g)
        .map((c) => c.cycle.join('>'))
        .sort(),
    ).toEqual(['a>b>c>a', 'e>e']);
  });

  it('keeps no module-level state unless it is marked process-wide', () => {
    const prod = files.filter((f) => !/\.(test|int\.test|fixtures?)\.ts$/.test(f));
    // Shared by every service instance in a process, and neither reset nor owned by any: state belongs
    // in its service (built by lib/services.ts); a constant or a fact of the process says why it is one.
    const found = prod.flatMap((f) => moduleState(fs.readFileSync(f, 'utf8')).map((x) => `${rel(f)}: ${x}`));
    expect(found).toEqual([]);
  });

  it('finds planted module-level state and lets marked constants and per-call state pass', () => {
    const planted = [
      "import { x } from './x';",
      'const cache = new Map<string, number>();',
      'export const byDb: WeakMap<object, string> = new WeakMap();',
      'const seen = (new Set<string>()) as Set<string>;',
      'let loaded: Promise<void> | undefined;',
      'var hits = 0;',
      'export const memo = new FileMemo();',
      'const queue: string[] = [];',
      'const slot = ((globalThis as any)[Symbol.for("k")] ??= new Set());',
      '// process-wide: a constant table, never written',
      "const KINDS = new Set(['a', 'b']);",
      '/** Why it is one per process. */',
      '// process-wide: a compiled pattern table',
      'const TABLE = new Map([[1, 2]]);',
      "const PATTERN = new RegExp('^a$');",
      'const make = () => new Map<string, string>();',
      'function f() { let n = 0; const m = new Map(); return [n, m]; }',
      'class C { private readonly entries = new Map(); }',
      "const NAMES: readonly string[] = ['a'];",
    ].join('\n');
    expect(moduleState(planted)).toEqual([
      'cache (new Map)',
      'byDb (new WeakMap)',
      'seen (new Set)',
      'loaded (let)',
      'hits (let)',
      'memo (new FileMemo)',
      'queue (empty array)',
      'slot (new Set)',
    ]);
  });

  it('keeps the operations reaching into services.database.db at or under the recorded ceiling', () => {
    const dir = path.join(LIB, 'api', 'operations');
    const counts = files
      .filter((f) => path.dirname(f) === dir && !/\.(test|int\.test)\.ts$/.test(f))
      .map((f) => ({ file: rel(f), n: databaseReaches(fs.readFileSync(f, 'utf8')) }))
      .filter((c) => c.n > 0);
    const total = counts.reduce((sum, c) => sum + c.n, 0);
    const detail = counts.map((c) => `${c.file}: ${c.n}`).join('\n');
    expect(total, `services.database.db in the operations (move them onto their domain's service):\n${detail}`).toBeLessThanOrEqual(DATABASE_REACH_CEILING);
  });

  it('counts planted database reaches and nothing that only looks like one', () => {
    const planted = [
      'listAgents(services.database.db);',
      'const deps = { db: services.database.db, decisions: services.approvals };',
      'services.database.dbPool();',
      'services.database.withLock(key, fn);',
      'const db = s.database;',
    ].join('\n');
    expect(databaseReaches(planted)).toBe(2);
  });

  it('reads type-only imports, re-exports and dynamic imports', () => {
    const text = "import type { A } from './a';\nexport { b } from '@/lib/b';\nexport * from './c';\nconst d = await import('./d');\n";
    expect(specifiers(text)).toEqual(['./a', '@/lib/b', './c', './d']);
  });
});
