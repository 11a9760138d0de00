// @vitest-environment happy-dom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { agentSummariesOut } from '@/lib/api/agent-view-schemas';
import { agentSummaries, agentSummary } from '@/test/helpers/agent-views';
import { renderComponent } from '@/test/helpers/render-component';
import { AgentsPage } from './agents-page';
import { summariesKey } from './queries';

const summaries = (items: ReturnType<typeof agentSummary>[]) => agentSummariesOut.parse(agentSummaries(items));
const THREE = summaries([agentSummary('writer', 'Writer', 12), agentSummary('coder', 'Coder', 3), agentSummary('reviewer', 'Reviewer', 7)]);
const shown = () =>
  within(screen.getByRole('table', { name: 'Agents' }))
    .queryAllByTestId(/^agent-row-/)
    .map((r) => r.dataset.testid?.replace('agent-row-', ''));

describe('the agents page on the shared list pieces', () => {
  it('filters the rows by the search and says when nothing matches, with a way back', () => {
    renderComponent(<AgentsPage />, { url: '/agents', queries: [[summariesKey, THREE]] });
    expect(shown()).toEqual(['coder', 'reviewer', 'writer']);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search agents' }), { target: { value: 'er' } });
    expect(shown()).toEqual(['coder', 'reviewer', 'writer']);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search agents' }), { target: { value: 'rev' } });
    expect(shown()).toEqual(['reviewer']);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search agents' }), { target: { value: 'nobody' } });
    expect(screen.getByText('No agents match')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show every agent' }));
    expect(shown()).toEqual(['coder', 'reviewer', 'writer']);
    expect(screen.queryByRole('button', { name: 'Reset filters' })).toBeNull();
  });

  it('sorts by skills ascending, then descending', () => {
    renderComponent(<AgentsPage />, { url: '/agents', queries: [[summariesKey, THREE]] });
    const header = () => screen.getByRole('columnheader', { name: /Skills/ });
    fireEvent.click(within(header()).getByRole('button'));
    expect(header().getAttribute('aria-sort')).toBe('ascending');
    expect(shown()).toEqual(['coder', 'reviewer', 'writer']);
    fireEvent.click(within(header()).getByRole('button'));
    expect(header().getAttribute('aria-sort')).toBe('descending');
    expect(shown()).toEqual(['writer', 'reviewer', 'coder']);
  });

  it('offers to create the first agent when there is none', () => {
    renderComponent(<AgentsPage />, { url: '/agents', queries: [[summariesKey, summaries([])]] });
    expect(screen.getByText('No agents yet')).toBeTruthy();
    expect(screen.getByTestId('new-agent-empty').textContent).toContain('New agent');
    expect(screen.queryByRole('table', { name: 'Agents' })).toBeNull();
  });
});
