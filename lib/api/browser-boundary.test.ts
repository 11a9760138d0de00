// What the browser may load: every client module of the console ('use client') and the API
// contracts (which the console's typed reads import) reach, through their runtime imports, no
// server code — no 'server-only' module, no Node built-in, no database or Docker client. Type-only
// imports are erased by the compiler and do not count; a 'use server' module is where the browser
// stops (it gets a reference to call, never the module).

import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT as ROOT, resolveLocal, sourceFilesUnder } from '@/test/helpers/local-modules';

const NODE_BUILTINS = new Set(builtinModules);
const SERVER_PACKAGES = /^(server-only|drizzle-orm|dockerode|postgres|pg|@electric-sql\/|undici|ws)(\/|$)/;

/** The module specifiers a file loads at run time: type-only imports and exports left out. */
export function runtimeSpecifiers(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const c = st.importClause;
      const typeOnly =
        !!c &&
        (c.isTypeOnly ||
          (!c.name &&
            !!c.namedBindings &&
            ts.isNamedImports(c.namedBindings) &&
            c.namedBindings.elements.length > 0 &&
            c.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) out.push(st.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) && !st.isTypeOnly) {
      out.push(st.moduleSpecifier.text);
    }
  }
  return out;
}

const USE_SERVER = /^\s*['"]use server['"]/;
const isServerOnly = (spec: string) => spec.startsWith('node:') || NODE_BUILTINS.has(spec) || SERVER_PACKAGES.test(spec);

/** Each server import reached from `entries`, as the chain of files that leads to it. */
export function serverImports(entries: string[]): string[] {
  const parent = new Map<string, string | null>(entries.map((e) => [e, null]));
  const queue = [...entries];
  const found: string[] = [];
  const chain = (f: string) => {
    const out: string[] = [];
    for (let x: string | null | undefined = f; x; x = parent.get(x)) out.unshift(path.relative(ROOT, x));
    return out.join(' → ');
  };
  while (queue.length) {
    const file = queue.shift() as string;
    for (const spec of runtimeSpecifiers(file, fs.readFileSync(file, 'utf8'))) {
      const local = resolveLocal(file, spec);
      if (local) {
        if (!parent.has(local)) {
          parent.set(local, file);
          if (!USE_SERVER.test(fs.readFileSync(local, 'utf8'))) queue.push(local);
        }
      } else if (isServerOnly(spec)) found.push(`${chain(file)} → ${spec}`);
    }
  }
  return found;
}

/** The `'use client'` modules under `dir`. */
const clientModules = (dir: string) => sourceFilesUnder(dir).filter((p) => /^\s*['"]use client['"]/.test(fs.readFileSync(p, 'utf8')));

describe('the browser boundary', () => {
  it('the API contracts reach no server code', () => {
    expect(serverImports([path.join(ROOT, 'lib/api/contracts/index.ts')])).toEqual([]);
  });

  it("no 'use client' module reaches server code", () => {
    const entries = [...clientModules(path.join(ROOT, 'components')), ...clientModules(path.join(ROOT, 'app'))];
    expect(entries.length).toBeGreaterThan(50);
    expect(serverImports(entries)).toEqual([]);
  });

  it('finds a server import behind a local one, and skips type-only imports and server actions', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'boundary-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'entry.ts'),
        "import { x } from './mid';\nimport type { Y } from './typed';\nimport { act } from './act';\nexport const z = [x, act];\n",
      );
      fs.writeFileSync(path.join(dir, 'act.ts'), "'use server';\nimport 'server-only';\nexport async function act() {}\n");
      fs.writeFileSync(path.join(dir, 'mid.ts'), "import fs from 'node:fs';\nexport const x = fs.existsSync;\n");
      fs.writeFileSync(path.join(dir, 'typed.ts'), "import 'server-only';\nexport type Y = number;\n");
      const found = serverImports([path.join(dir, 'entry.ts')]);
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/entry\.ts → .*mid\.ts → node:fs$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
