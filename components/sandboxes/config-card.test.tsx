// @vitest-environment happy-dom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sandboxConfigDetailOut } from '@/lib/sandbox/config/schema';
import { configListItem, configRecord } from '@/test/helpers/config-views';
import { renderComponent } from '@/test/helpers/render-component';
import { ConfigCard } from './config-card';
import { configDetailKey } from './queries';

// One item of GET /api/v1/sandbox-configs, and its detail with what uses it, checked against the contracts.
const overrides = { description: 'Python 3.12 with the skills runtime', envCount: 1 };
const config = configListItem(overrides);
const detail = sandboxConfigDetailOut.parse({
  ...configRecord(overrides),
  usage: { instances: [], agents: [{ id: 'writer', name: 'Writer' }], verified: true },
});

describe('a sandbox config card', () => {
  it('opens read-only with an eye for a role that cannot edit', () => {
    renderComponent(<ConfigCard config={config} canWrite={false} why="Needs the admin role (you are viewer)." onEdit={() => {}} />, { role: 'viewer' });
    const view = screen.getByRole('button', { name: 'View' });
    expect(view.querySelector('.lucide-eye')).not.toBeNull();
    expect(document.querySelector('.lucide-pencil')).toBeNull();
  });

  it('edits with the pencil, and its Delete names the agent using it before any confirm', () => {
    renderComponent(<ConfigCard config={config} canWrite onEdit={() => {}} />, { queries: [[configDetailKey(config.id), detail]] });
    expect(screen.getByRole('button', { name: 'Edit' }).querySelector('.lucide-pencil')).not.toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByTestId('config-in-use').textContent).toContain('1 agent uses this config');
    expect(within(dialog).getByRole('link', { name: 'Writer' })).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Delete config' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
