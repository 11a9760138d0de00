import type { Decision } from '@/lib/policy/types';
import type { ExecLogRow } from './queries';

export const SORT_FIELDS = ['at', 'command', 'decision', 'rule', 'exitCode', 'durationMs'] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export type Sort = SortField | `-${SortField}`;

export interface ExecLogFilters {
  agent: string;
  decision: Decision | '';
  q: string;
  sort: Sort;
}

const DECISIONS = ['allow', 'deny', 'approval'];
const isSort = (s: string): s is Sort => (SORT_FIELDS as readonly string[]).includes(s.replace(/^-/, ''));

export function parseFilters(p: URLSearchParams): ExecLogFilters {
  const decision = p.get('decision') ?? '';
  const sort = p.get('sort') ?? '';
  return {
    agent: (p.get('agent') ?? '').slice(0, 80),
    decision: DECISIONS.includes(decision) ? (decision as Decision) : '',
    q: (p.get('q') ?? '').slice(0, 200),
    sort: isSort(sort) ? sort : '-at',
  };
}

export function filtersQuery(f: ExecLogFilters): string {
  const q = new URLSearchParams();
  if (f.agent) q.set('agent', f.agent);
  if (f.decision) q.set('decision', f.decision);
  if (f.q) q.set('q', f.q);
  if (f.sort !== '-at') q.set('sort', f.sort);
  return q.toString();
}

function value(r: ExecLogRow, f: SortField): string | number {
  if (f === 'at') return Date.parse(r.at);
  if (f === 'exitCode') return r.exitCode ?? Number.NEGATIVE_INFINITY;
  if (f === 'durationMs') return r.durationMs ?? Number.NEGATIVE_INFINITY;
  return r[f] ?? '';
}

/** The rows the filters keep, in the chosen order (a text search looks at the command, rule and reason). */
export function applyFilters(rows: ExecLogRow[], f: ExecLogFilters): ExecLogRow[] {
  const q = f.q.trim().toLowerCase();
  const kept = rows.filter(
    (r) =>
      (!f.decision || r.decision === f.decision) &&
      (!q || (r.command ?? '').toLowerCase().includes(q) || r.rule.includes(q) || r.reason.toLowerCase().includes(q)),
  );
  const desc = f.sort.startsWith('-');
  const field = f.sort.replace(/^-/, '') as SortField;
  return kept.sort((a, b) => {
    const x = value(a, field);
    const y = value(b, field);
    const c = x < y ? -1 : x > y ? 1 : 0;
    return desc ? -c : c;
  });
}

export function formatMs(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${ms} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}
