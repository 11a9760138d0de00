// @vitest-environment happy-dom
import { useQuery } from '@tanstack/react-query';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderComponent } from '@/test/helpers/render-component';
import { SortHeader } from '../ui/sort-header';
import { SkeletonRows, Table, TBody, TD, THead, TR } from '../ui/table';
import { useUrlFilters } from '../ui/use-url-filters';
import { FilterBar, optionsOf, SearchFilter, SelectFilter } from './filter-bar';
import { NoMatchState, QueryListState } from './query-list-state';
import { ShowMore, usePagedRows } from './show-more';
import { parseSort, type SortOf, sortRows } from './sort-rows';

// A list page built only from the shared pieces, the way the agents and gateways pages use them.
interface Pkg {
  name: string;
  size: number;
  kind: 'npm' | 'pip';
}
const FIELDS = ['name', 'size'] as const;
const KINDS = ['all', 'npm', 'pip'] as const;
interface Filters {
  q: string;
  kind: (typeof KINDS)[number];
  sort: SortOf<(typeof FIELDS)[number]>;
}
const parse = (p: URLSearchParams): Filters => ({
  q: p.get('q') ?? '',
  kind: (KINDS as readonly string[]).includes(p.get('kind') ?? '') ? (p.get('kind') as Filters['kind']) : 'all',
  sort: parseSort(p.get('sort'), FIELDS, 'name'),
});
const toQuery = (f: Filters) => {
  const p = new URLSearchParams();
  if (f.q) p.set('q', f.q);
  if (f.kind !== 'all') p.set('kind', f.kind);
  if (f.sort !== 'name') p.set('sort', f.sort);
  return p.toString();
};
const KEY = ['packages', 'list-test'] as const;
const KIND_OPTIONS = optionsOf(KINDS, { all: 'Every kind', npm: 'npm', pip: 'pip' });

function PackagesList({ fail }: { fail?: boolean }) {
  const query = useQuery({
    queryKey: KEY,
    queryFn: async (): Promise<Pkg[]> => {
      throw new Error(fail ? 'The package list could not be read' : 'seed the query');
    },
  });
  const [f, setF] = useUrlFilters(parse, toQuery);
  const q = f.q.toLowerCase();
  const rows = sortRows(
    (query.data ?? []).filter((p) => (f.kind === 'all' || p.kind === f.kind) && p.name.includes(q)),
    f.sort,
    { name: (p) => p.name, size: (p) => p.size },
    (p) => p.name,
  );
  const paged = usePagedRows(rows, 3);
  const reset = () => setF({ q: '', kind: 'all' });
  return (
    <>
      <FilterBar filtered={!!f.q || f.kind !== 'all'} onReset={reset}>
        <SearchFilter label="Search packages" placeholder="Search packages…" value={f.q} onChange={(v) => setF({ q: v })} className="w-56" />
        <SelectFilter label="Kind" value={f.kind} options={KIND_OPTIONS} onChange={(kind) => setF({ kind })} className="w-36" />
      </FilterBar>
      <QueryListState
        query={query}
        total={(d) => d.length}
        matched={rows.length}
        empty={<p>No packages yet</p>}
        noMatch={
          <NoMatchState title="No packages match" resetLabel="Show every package" onReset={reset}>
            Try other words.
          </NoMatchState>
        }
      >
        <Table aria-label="Packages" aria-busy={!query.data || undefined}>
          <THead>
            <TR>
              <SortHeader label="Name" field="name" sort={f.sort} onSort={(sort) => setF({ sort })} />
              <SortHeader label="Size" field="size" sort={f.sort} onSort={(sort) => setF({ sort })} />
            </TR>
          </THead>
          <TBody>
            {query.data ? (
              paged.visible.map((p) => (
                <TR key={p.name}>
                  <TD>{p.name}</TD>
                  <TD>{p.size}</TD>
                </TR>
              ))
            ) : (
              <SkeletonRows rows={2} cols={2} />
            )}
          </TBody>
        </Table>
        <ShowMore left={paged.left} onMore={paged.more} />
      </QueryListState>
    </>
  );
}

const PKGS: Pkg[] = [
  { name: 'zod', size: 30, kind: 'npm' },
  { name: 'yaml', size: 20, kind: 'npm' },
  { name: 'requests', size: 50, kind: 'pip' },
  { name: 'react', size: 10, kind: 'npm' },
  { name: 'rich', size: 40, kind: 'pip' },
];
const names = () =>
  within(screen.getByRole('table', { name: 'Packages' }))
    .queryAllByRole('row')
    .slice(1)
    .map((r) => r.firstElementChild?.textContent);

describe('a list page built on the shared list pieces', () => {
  it('shows the table with skeleton rows while the query loads', () => {
    renderComponent(<PackagesList />, { url: '/packages' });
    expect(screen.getByRole('table', { name: 'Packages' }).getAttribute('aria-busy')).toBe('true');
    expect(names()).toEqual([]);
  });

  it('shows a failed load with a retry that runs the query again', async () => {
    const { client } = renderComponent(<PackagesList fail />, { url: '/packages' });
    expect((await screen.findByRole('alert')).textContent).toBe('The package list could not be read');
    expect(screen.queryByRole('table')).toBeNull();
    const before = client.getQueryState(KEY)?.errorUpdateCount ?? 0;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('alert');
    await expect.poll(() => client.getQueryState(KEY)?.errorUpdateCount).toBe(before + 1);
  });

  it('says there is nothing yet when the query answers no items', () => {
    renderComponent(<PackagesList />, { url: '/packages', queries: [[KEY, []]] });
    expect(screen.getByText('No packages yet')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('filters the rows and the "left" count by the search, and mirrors the search into the URL', () => {
    renderComponent(<PackagesList />, { url: '/packages', queries: [[KEY, PKGS]] });
    expect(names()).toEqual(['react', 'requests', 'rich']);
    expect(screen.getByRole('button', { name: 'Show more (2 left)' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reset filters' })).toBeNull();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search packages' }), { target: { value: 'r' } });
    expect(names()).toEqual(['react', 'requests', 'rich']);
    expect(screen.queryByRole('button', { name: /Show more/ })).toBeNull();
    expect(window.location.search).toBe('?q=r');

    fireEvent.change(screen.getByRole('combobox', { name: 'Kind' }), { target: { value: 'pip' } });
    expect(names()).toEqual(['requests', 'rich']);
    expect(window.location.search).toBe('?q=r&kind=pip');

    fireEvent.click(screen.getByRole('button', { name: 'Reset filters' }));
    expect(names()).toEqual(['react', 'requests', 'rich']);
    expect(screen.getByRole('button', { name: 'Show more (2 left)' })).toBeTruthy();
    expect(window.location.search).toBe('');
  });

  it('shows the no-match state when the search hides every row, and its button clears the filters', () => {
    renderComponent(<PackagesList />, { url: '/packages?q=nothing-like-this', queries: [[KEY, PKGS]] });
    expect(screen.getByText('No packages match')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Show every package' }));
    expect(names()).toEqual(['react', 'requests', 'rich']);
  });

  it('shows the next page of rows on "Show more"', () => {
    renderComponent(<PackagesList />, { url: '/packages', queries: [[KEY, PKGS]] });
    fireEvent.click(screen.getByRole('button', { name: 'Show more (2 left)' }));
    expect(names()).toEqual(['react', 'requests', 'rich', 'yaml', 'zod']);
    expect(screen.queryByRole('button', { name: /Show more/ })).toBeNull();
  });

  it('sorts by a header ascending, then descending on a second press', () => {
    renderComponent(<PackagesList />, { url: '/packages', queries: [[KEY, PKGS]] });
    const size = () => screen.getByRole('columnheader', { name: /Size/ });
    expect(size().getAttribute('aria-sort')).toBe('none');
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('ascending');

    fireEvent.click(within(size()).getByRole('button'));
    expect(size().getAttribute('aria-sort')).toBe('ascending');
    expect(names()).toEqual(['react', 'yaml', 'zod']);
    expect(window.location.search).toBe('?sort=size');

    fireEvent.click(within(size()).getByRole('button'));
    expect(size().getAttribute('aria-sort')).toBe('descending');
    expect(names()).toEqual(['requests', 'rich', 'zod']);
    expect(window.location.search).toBe('?sort=-size');
  });

  it('reads the sort from the URL and ignores one it does not know', () => {
    renderComponent(<PackagesList />, { url: '/packages?sort=-name', queries: [[KEY, PKGS]] });
    expect(names()).toEqual(['zod', 'yaml', 'rich']);
    expect(parseSort('-bogus', FIELDS, 'name')).toBe('name');
    expect(parseSort(null, FIELDS, '-size')).toBe('-size');
  });
});

describe('sortRows', () => {
  it('breaks ties by the tiebreak key, reversed with the order', () => {
    const items = [
      { id: 'b', n: 1 },
      { id: 'a', n: 1 },
      { id: 'c', n: 0 },
    ];
    const keys = { n: (i: { n: number }) => i.n };
    expect(sortRows(items, 'n', keys, (i) => i.id).map((i) => i.id)).toEqual(['c', 'a', 'b']);
    expect(sortRows(items, '-n', keys, (i) => i.id).map((i) => i.id)).toEqual(['b', 'a', 'c']);
    // The input is left as it was.
    expect(items.map((i) => i.id)).toEqual(['b', 'a', 'c']);
  });
});
