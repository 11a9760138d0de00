// The README's configuration table and the environment schema name the same variables, each once.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { envSchema } from './config';

const README = path.resolve(__dirname, '../../README.md');

/** The names in the first column of the table under "## Configuration" (a row may name several). */
function documented(): string[] {
  const text = fs.readFileSync(README, 'utf8');
  const start = text.indexOf('\n## Configuration\n');
  expect(start).toBeGreaterThan(-1);
  const section = text.slice(start + 1, text.indexOf('\n## ', start + 1));
  return section
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .flatMap((l) => {
      const cell = l.split('|')[1]!;
      const found = [...cell.matchAll(/`([A-Z0-9_]+)`/g)].map((m) => m[1]!);
      return found.length ? found : [`unparsable row: ${l.slice(0, 60)}`];
    });
}

it('documents every variable the schema reads, and nothing else', () => {
  const names = documented();
  const duplicates = names.filter((n, i) => names.indexOf(n) !== i);
  expect(duplicates).toEqual([]);
  const schema = Object.keys(envSchema.shape);
  expect(names.filter((n) => !schema.includes(n)).sort()).toEqual([]);
  expect(schema.filter((n) => !names.includes(n)).sort()).toEqual([]);
});
