// The console reads the API only through get(contract): the URL comes from the operation's contract
// and the answer is typed by its response schema. This holds it there: components/api.ts exports no
// reader that takes a URL, and no other module of components/ opens an HTTP request of its own,
// except the few below that the browser must make natively (each with its reason).

import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, sourceFilesUnder } from '@/test/helpers/local-modules';
import * as apiModule from './api';

const COMPONENTS = path.join(REPO_ROOT, 'components');
const READER = 'components/api.ts';

/** Requests get() cannot make, by file: what each opens and why. */
const NATIVE_REQUESTS: Record<string, { opens: string[]; why: string }> = {
  'components/jobs/use-job-stream.ts': { opens: ['EventSource'], why: 'the job log is a text/event-stream the browser reconnects by itself' },
  'components/skills/import/upload.ts': { opens: ['XMLHttpRequest'], why: 'an archive upload with progress, which fetch does not report' },
  'components/sandboxes/instances/artifacts.tsx': { opens: ['XMLHttpRequest'], why: 'a file upload into a sandbox with progress' },
};

const GLOBALS = new Set(['window', 'globalThis', 'self']);

/** The HTTP requests a module opens itself: calls to fetch (bare or on a global), new XMLHttpRequest, new EventSource. */
export function rawRequests(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const where = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n)) {
      const e = n.expression;
      const isFetch =
        (ts.isIdentifier(e) && e.text === 'fetch') ||
        (ts.isPropertyAccessExpression(e) && e.name.text === 'fetch' && ts.isIdentifier(e.expression) && GLOBALS.has(e.expression.text));
      if (isFetch) found.push(`fetch:${where(n)}`);
    } else if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && (n.expression.text === 'XMLHttpRequest' || n.expression.text === 'EventSource')) {
      found.push(`${n.expression.text}:${where(n)}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe('reads go through get(contract)', () => {
  it('components/api.ts exports no reader that takes a URL', () => {
    expect(Object.keys(apiModule).sort()).toEqual(['ApiError', 'applyIssues', 'get', 'pathOf', 'urlOf']);
  });

  it('no module of components/ opens a request of its own, except the listed native ones', () => {
    const opened: Record<string, string[]> = {};
    for (const file of sourceFilesUnder(COMPONENTS)) {
      const rel = path.relative(REPO_ROOT, file);
      if (rel === READER) continue;
      const text = fs.readFileSync(file, 'utf8');
      // Parsed only when a name it looks for appears at all.
      const found = /fetch|XMLHttpRequest|EventSource/.test(text) ? rawRequests(file, text) : [];
      if (found.length) opened[rel] = found;
    }
    const kinds = Object.fromEntries(Object.entries(opened).map(([f, found]) => [f, [...new Set(found.map((x) => x.split(':')[0]))].sort()]));
    expect(kinds).toEqual(Object.fromEntries(Object.entries(NATIVE_REQUESTS).map(([f, n]) => [f, n.opens])));
  });

  it('the raw reader is where get() sends its request', () => {
    expect(rawRequests(READER, fs.readFileSync(path.join(REPO_ROOT, READER), 'utf8'))).toHaveLength(1);
  });

  it('finds fetch bare or on a global and the native request objects, and nothing else of that name', () => {
    const text = [
      "const a = await fetch('/api/v1/jobs');",
      'const b = await window.fetch(url);',
      'const c = globalThis.fetch(url);',
      'const x = new XMLHttpRequest();',
      "const es = new EventSource('/api/v1/jobs/1/events');",
      'void q.refetch();',
      'void client.fetch();',
      'await qc.fetchQuery({ queryKey: [] });',
      "const ws = new WebSocket('/ws/jobs');",
    ].join('\n');
    expect(rawRequests('x.ts', text)).toEqual(['fetch:1', 'fetch:2', 'fetch:3', 'XMLHttpRequest:4', 'EventSource:5']);
  });
});
