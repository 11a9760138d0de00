// @vitest-environment happy-dom
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { approvalListOut } from '@/lib/api/policy-schemas';
import { renderComponent } from '@/test/helpers/render-component';
import { PolicyTabs } from '../policy/policy-tabs';
import { NavLinks } from './nav-links';

const pendingKey = ['exec-policy', 'approvals', 'pending'] as const;
const at = '2026-12-07T05:00:00.000Z';
// Two requests as GET /api/v1/exec-approvals?state=pending answers them: an agent waits on each.
const pending = (ids: string[]) =>
  approvalListOut.parse({
    items: ids.map((id) => ({
      id,
      agentId: 'writer',
      command: 'pip install -r requirements.txt',
      segment: 'pip install -r requirements.txt',
      rule: 'deny_group:package_install',
      reason: 'installs packages',
      state: 'pending',
      requestedAt: at,
      requestedBy: 'agent:writer',
      expiresAt: '2026-12-07T05:10:00.000Z',
      decidedAt: null,
      decidedBy: null,
      note: null,
      usedAt: null,
      stdinSha256: null,
      cwd: null,
      skill: null,
      timeoutMs: 30000,
      scripts: null,
    })),
  });

const sidebarEntry = () => screen.getByRole('link', { name: /^Exec policy/ });

describe('pending approvals outside their tab', () => {
  it('shows their count on the sidebar entry and the Approvals tab, and follows the polled query', async () => {
    const { client } = renderComponent(
      <>
        <nav aria-label="Sections">
          <NavLinks />
        </nav>
        <PolicyTabs />
      </>,
      { role: 'operator', queries: [[pendingKey, pending(['apr_1', 'apr_2'])]] },
    );
    expect(within(sidebarEntry()).getByTestId('pending-approvals-count').textContent).toBe('2 approvals waiting');
    const tabs = screen.getByRole('navigation', { name: 'Exec policy' });
    expect(within(tabs).getByTestId('pending-approvals-count').textContent).toBe('2 approvals waiting');
    // The next poll finds one decided: both counts follow; none left, no badge.
    act(() => client.setQueryData(pendingKey, pending(['apr_2'])));
    await waitFor(() => expect(within(sidebarEntry()).getByTestId('pending-approvals-count').textContent).toBe('1 approval waiting'));
    act(() => client.setQueryData(pendingKey, pending([])));
    await waitFor(() => expect(screen.queryAllByTestId('pending-approvals-count')).toHaveLength(0));
    expect(sidebarEntry().textContent).toBe(' Exec policy');
  });

  it("shows on a viewer's sidebar too (viewers read the exec policy)", () => {
    renderComponent(<NavLinks />, { role: 'viewer', queries: [[pendingKey, pending(['apr_1'])]] });
    expect(within(sidebarEntry()).getByTestId('pending-approvals-count').textContent).toBe('1 approval waiting');
  });
});
