// @vitest-environment happy-dom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sandboxConfigDetailOut, sandboxConfigListOut } from '@/lib/sandbox/config/schema';
import { renderComponent } from '@/test/helpers/render-component';
import { ConfigCard } from './config-card';
import { configDetailKey } from './queries';

const at = '2026-12-01T10:00:00.000Z';
// One item of GET /api/v1/sandbox-configs, and its detail with what uses it, checked against the contracts.
const fields = {
  id: 'cfg_docker_1',
  name: 'python-sandbox',
  backend: 'docker',
  description: 'Python 3.12 with the skills runtime',
  config: { image: 'skilldock/python:3.12', host: '' },
  secretsConfigured: [],
  enabled: true,
  lastCheckAt: at,
  lastCheckPassedAt: at,
  lastCheckReport: null,
  lockedUntil: null,
  envCount: 1,
  createdAt: at,
  createdBy: 'owner@example.test',
  updatedAt: at,
  updatedBy: 'owner@example.test',
};
const config = sandboxConfigListOut.parse({ items: [{ ...fields, instances: 0 }] }).items[0];
const detail = sandboxConfigDetailOut.parse({ ...fields, usage: { instances: [], agents: [{ id: 'writer', name: 'Writer' }], verified: true } });

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
