import { minimumRole } from '../auth/permissions';
import type { RouteContract } from '../http/contract';

/** The heading in docs/api.md under which the route tables stand, to the end of the page. */
export const ROUTES_HEADING = '## Every route';

/**
 * One row per contract: method, path, permission with the least role holding it, summary (and a
 * non-200 status); grouped by the OpenAPI tag in the order the tags first appear.
 */
export function routeRows(contracts: Record<string, RouteContract>): { tag: string; cells: string[] }[] {
  const all = Object.values(contracts);
  const tags = [...new Set(all.map((c) => c.tag))];
  return tags
    .flatMap((tag) => all.filter((c) => c.tag === tag))
    .map((c) => ({
      tag: c.tag,
      cells: [
        `\`${c.method}\``,
        `\`${c.path}\``,
        c.permission ? `\`${c.permission}\` (${minimumRole(c.permission)})` : 'none',
        (c.summary + (c.status && c.status !== 200 ? ` → ${c.status}` : '')).replace(/\|/g, '\\|'),
      ],
    }));
}

/** The route tables of docs/api.md, one per tag. */
export function routeTables(contracts: Record<string, RouteContract>): string {
  const rows = routeRows(contracts);
  const tags = [...new Set(rows.map((r) => r.tag))];
  const out = [
    ROUTES_HEADING,
    '',
    'Generated from the same contracts as the OpenAPI document (a test keeps this list in step with',
    'them); the document itself, with every input and output schema, is `/api/v1/openapi.json`.',
  ];
  for (const tag of tags) {
    out.push('', `### ${tag}`, '', '| Method | Path | Permission (least role) | What |', '| --- | --- | --- | --- |');
    for (const r of rows.filter((x) => x.tag === tag)) out.push(`| ${r.cells.join(' | ')} |`);
  }
  return `${out.join('\n')}\n`;
}
