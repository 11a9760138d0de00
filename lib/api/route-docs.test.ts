// docs/api.md lists every route of the contracts, and nothing else. SKILLDOCK_UPDATE_DOCS=1 rewrites the
// list from the contracts (then format it: npx biome check --write docs/api.md).
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { RouteContract } from '../http/contract';
import { api } from './contracts';
import { ROUTES_HEADING, routeRows, routeTables } from './route-docs';

const PAGE = path.resolve(__dirname, '../../docs/api.md');
const contracts = api as unknown as Record<string, RouteContract>;

/** The rows of the page's route tables as trimmed cells (the formatter pads them). */
function documented(text: string): string[] {
  return text
    .slice(text.indexOf(`\n${ROUTES_HEADING}\n`))
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) =>
      l
        .slice(1, -1)
        .split(/(?<!\\) \| /)
        .map((c) => c.trim())
        .join(' | '),
    );
}

it('lists every route of the contracts with its permission and summary', () => {
  let text = fs.readFileSync(PAGE, 'utf8');
  if (process.env.SKILLDOCK_UPDATE_DOCS === '1') {
    const at = text.indexOf(`\n${ROUTES_HEADING}\n`);
    text = `${at === -1 ? `${text.trimEnd()}\n` : text.slice(0, at + 1)}\n${routeTables(contracts)}`;
    fs.writeFileSync(PAGE, text);
  }
  expect(text.includes(`\n${ROUTES_HEADING}\n`)).toBe(true);
  const want = routeRows(contracts).map((r) => r.cells.join(' | '));
  expect(want.length).toBeGreaterThan(100);
  expect(documented(text)).toEqual(want);
});
