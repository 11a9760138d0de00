// @vitest-environment happy-dom
// How the Packages view fits a phone: happy-dom applies no CSS, so these check the structure the
// 390 px layout rests on (the e2e test measures the page itself in Chromium).
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { historyOut, updatesOut } from '@/lib/api/package-schemas';
import { packageListOut } from '@/lib/api/schemas';
import { renderComponent } from '@/test/helpers/render-component';
import { InstallHistoryCard, packageHistoryKey } from './install-history';
import { PackagesCard } from './packages-card';
import { packagesKey, updatesKey } from './queries';
import type { RuntimeFilters } from './use-runtime-filters';

const LONG = '@typescript-eslint/eslint-plugin-with-an-unusually-long-package-name';
const LONG_VERSION = '8.19.1-alpha.20241207.0123456789abcdef';
const hourAgo = new Date(Date.now() - 3600_000).toISOString();
const secondsAgo = new Date(Date.now() - 20_000).toISOString();

// What the API answers, checked against the contracts' own schemas.
const packages = packageListOut.parse({
  items: [
    {
      manager: 'npm',
      name: LONG,
      version: LONG_VERSION,
      managed: true,
      installedAt: hourAgo,
      installedBy: 'owner@example.test',
      location: `/srv/skilldock/.data/runtime/npm/node_modules/${LONG}`,
    },
    { manager: 'npm', name: 'is-number', version: '7.0.0', managed: true, installedAt: hourAgo, installedBy: 'admin@example.test' },
    { manager: 'npm', name: 'npm', version: '10.8.2', managed: false, summary: 'a package manager for JavaScript' },
  ],
  errors: [],
});
const updates = updatesOut.parse({
  updates: [],
  pins: [],
  sources: [{ source: 'npm', checkedAt: secondsAgo, attemptedAt: secondsAgo, error: null, stale: false, packageErrors: 0 }],
  checkedAt: secondsAgo,
  ageSeconds: 20,
  ttlSeconds: 3600,
  stale: false,
  refreshJobId: null,
});
const history = historyOut.parse({
  items: [
    {
      id: 'job_1',
      kind: 'package.install',
      title: `Install npm:${LONG}@${LONG_VERSION}`,
      state: 'succeeded',
      createdBy: 'owner@example.test',
      createdAt: hourAgo,
      startedAt: hourAgo,
      durationMs: 12_000,
    },
  ],
});
const filters: RuntimeFilters = { tab: 'packages', pm: 'node', q: '', mine: false, sort: 'name', src: '', usort: 'source' } as RuntimeFilters;

function packagesView() {
  renderComponent(<PackagesCard filters={filters} setFilters={() => {}} readiness={undefined} onAction={() => {}} busy={false} active={new Map()} />, {
    queries: [
      [packagesKey('npm'), packages],
      [updatesKey, updates],
    ],
    url: '/runtime?tab=packages&pm=node',
  });
  return screen.getByRole('table', { name: 'Installed packages' });
}

describe('the Packages view on a phone', () => {
  it('scrolls the table inside a labelled, focusable region of its own, never the page', () => {
    const table = packagesView();
    const region = screen.getByRole('region', { name: 'Installed packages, scrolls sideways' });
    expect(region.tabIndex).toBe(0);
    expect(region.contains(table)).toBe(true);
    expect(region.className).toContain('overflow-x-auto');
    expect(region.className).toContain('[contain:inline-size]');
  });

  it('stacks each row as a card below md: name, version and source on the left, icon actions on the right', () => {
    const table = packagesView();
    expect(table.className.split(' ')).toContain('max-md:block');
    const row = screen.getByRole('row', { name: /is-number/ });
    expect(row.className).toContain('max-md:grid');
    expect(row.className).toContain('max-md:grid-cols-[minmax(0,1fr)_auto]');
    const cells = within(row).getAllByRole('cell');
    for (const cell of cells.slice(0, 3)) expect(cell.className).toContain('max-md:col-start-1');
    expect(cells.at(-1)?.className).toContain('max-md:col-start-2');
    // The buttons keep their names; only their words are hidden on a phone.
    const update = within(row).getByRole('button', { name: 'Update' });
    expect(within(update).getByText('Update').className).toBe('max-md:sr-only');
    // The sort buttons stay, in a row of their own; the other headers go.
    const head = screen.getAllByRole('row')[0];
    expect(head.className).toContain('max-md:flex');
    expect(within(head).getByRole('button', { name: /Name/ })).toBeTruthy();
  });

  it('truncates a long name and version with their full text in a title', () => {
    packagesView();
    const row = screen.getByRole('row', { name: new RegExp(LONG.replace(/[/.@-]/g, '\\$&')) });
    const name = row.querySelector('[data-slot="package-name"]') as HTMLElement;
    expect(name.className.split(' ')).toContain('truncate');
    expect(name.getAttribute('title')).toBe(`${LONG} (/srv/skilldock/.data/runtime/npm/node_modules/${LONG})`);
    const version = row.querySelector('[data-slot="package-version"]') as HTMLElement;
    expect(version.className.split(' ')).toContain('truncate');
    expect(version.className).toContain('max-md:max-w-none');
    expect(version.getAttribute('title')).toBe(LONG_VERSION);
  });

  it('says when a package was found up to date with the shared time wording', async () => {
    packagesView();
    const row = screen.getByRole('row', { name: /is-number/ });
    const trigger = within(row).getByRole('button', { name: 'Update' }).parentElement as HTMLElement;
    await act(async () => fireEvent.focus(trigger));
    expect((await screen.findByRole('tooltip')).textContent).toBe('is-number 7.0.0 is the latest version (checked just now).');
  });

  it('keeps the install history inside its card: a bounded column, and long job titles truncated with a title', () => {
    renderComponent(<InstallHistoryCard />, { queries: [[packageHistoryKey, history]] });
    const list = screen.getByRole('list', { name: 'Recent package jobs' });
    expect(list.className).toContain('grid-cols-[minmax(0,1fr)]');
    expect((list.parentElement as HTMLElement).className).toContain('grid-cols-[minmax(0,1fr)]');
    const title = within(list).getByRole('link', { name: `Install npm:${LONG}@${LONG_VERSION}` });
    expect(title.className.split(' ')).toEqual(expect.arrayContaining(['truncate', 'min-w-0']));
    expect(title.getAttribute('title')).toBe(`Install npm:${LONG}@${LONG_VERSION}`);
  });
});
