// @vitest-environment happy-dom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { folderClientListOut } from '@/lib/api/gateway-schemas';
import { renderComponent } from '@/test/helpers/render-component';
import { FolderClientsCard } from './folder-clients-card';

const at = '2026-12-01T10:00:00.000Z';
const client = (agentId: string, clientId: string, host: string) => ({
  agentId,
  clientId,
  host,
  dir: `/home/${agentId}/skills`,
  mode: 'events',
  pollMs: 0,
  blocked: 0,
  version: 'v3',
  currentVersion: 'v3',
  via: 'token ci',
  firstSeenAt: at,
  lastSeenAt: at,
  status: 'in-step',
  summary: 'Holds the current skills.',
});
// GET /api/v1/folder-clients, checked against its contract.
const list = folderClientListOut.parse({ clients: [client('writer', 'c1', 'laptop'), client('coder', 'c2', 'build-box')] });
const key = ['gateways', 'folder-clients', null] as const;

describe('the folder clients card on the shared list pieces', () => {
  it('lists only the clients the page search matches', () => {
    renderComponent(<FolderClientsCard q="build" />, { queries: [[key, list]] });
    const rows = within(screen.getByRole('table', { name: 'Folder clients' })).getAllByTestId(/^folder-client-c/);
    expect(rows.map((r) => r.dataset.testid)).toEqual(['folder-client-c2']);
  });

  it('says no client matches when the search hides them all, and that none reported when there are none', () => {
    const { unmount } = renderComponent(<FolderClientsCard q="nothing-like-this" />, { queries: [[key, list]] });
    expect(screen.getByText('No folder client matches')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    unmount();
    renderComponent(<FolderClientsCard />, { queries: [[key, { clients: [] }]] });
    expect(screen.getByText('No folder client has reported yet')).toBeTruthy();
  });

  it('asks before forgetting a client, naming its folder, and "Keep it" closes the question', async () => {
    renderComponent(<FolderClientsCard />, { queries: [[key, list]] });
    const row = screen.getByTestId('folder-client-c1');
    fireEvent.click(within(row).getByRole('button', { name: 'Forget' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Forget this folder client?' });
    expect(dialog.textContent).toContain('laptop:/home/writer/skills (agent writer) leaves this list.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
