// The configuration table in docs/configuration.md and the environment schema name the same variables,
// each once, with the same defaults where the schema has a plain one.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { envSchema } from './config';

const PAGE = path.resolve(__dirname, '../../docs/configuration.md');

interface Row {
  names: string[];
  defaultCell: string;
  line: string;
}

/** The rows of the table whose first column names variables in backticks (a row may name several). */
function rows(): Row[] {
  const text = fs.readFileSync(PAGE, 'utf8');
  const found = text
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) => {
      const cells = l.split('|').map((c) => c.trim());
      return { names: [...cells[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!), defaultCell: cells[2] ?? '', line: l.slice(0, 60) };
    });
  expect(found.length).toBeGreaterThan(0);
  return found;
}

it('documents every variable the schema reads, and nothing else', () => {
  const names = rows().flatMap((r) => (r.names.length ? r.names : [`unparsable row: ${r.line}`]));
  const duplicates = names.filter((n, i) => names.indexOf(n) !== i);
  expect(duplicates).toEqual([]);
  const schema = Object.keys(envSchema.shape);
  expect(names.filter((n) => !schema.includes(n)).sort()).toEqual([]);
  expect(schema.filter((n) => !names.includes(n)).sort()).toEqual([]);
});

it('shows the default the schema applies', () => {
  const wrong: string[] = [];
  for (const row of rows()) {
    for (const name of row.names) {
      const field = envSchema.shape[name as keyof typeof envSchema.shape];
      const parsed = field?.safeParse(undefined);
      if (!parsed?.success || parsed.data === undefined || typeof parsed.data === 'object') continue;
      if (!row.defaultCell.includes(`\`${String(parsed.data)}\``)) wrong.push(`${name}: schema ${String(parsed.data)}, docs ${row.defaultCell}`);
    }
  }
  expect(wrong).toEqual([]);
});
