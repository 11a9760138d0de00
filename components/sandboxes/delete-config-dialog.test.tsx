// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { sandboxConfigDetailOut } from '@/lib/sandbox/config/schema';
import { configRecord } from '@/test/helpers/config-views';
import { renderComponent } from '@/test/helpers/render-component';
import { DeleteConfigDialog } from './delete-config-dialog';
import { configDetailKey } from './queries';

const at = '2026-12-01T10:00:00.000Z';
const config = configRecord({ envCount: 2 }, at);
// What GET /api/v1/sandbox-configs/{id} answers, checked against the contract's own schema.
const detail = (usage: { instances: { id: string; state: string; createdAt: string | null }[]; agents: { id: string; name: string }[]; verified: boolean }) =>
  sandboxConfigDetailOut.parse({ ...config, usage });

function open(usage: Parameters<typeof detail>[0]) {
  const onConfirm = vi.fn();
  renderComponent(
    <DeleteConfigDialog config={{ ...config, instances: usage.instances.length }} open onOpenChange={() => {}} busy={false} onConfirm={onConfirm} />,
    {
      queries: [[configDetailKey(config.id), detail(usage)]],
    },
  );
  return { dialog: screen.getByRole('alertdialog'), onConfirm };
}

describe('deleting a sandbox config', () => {
  it('names the agents and sandboxes that use it, counts them once, and cannot be confirmed', () => {
    const { dialog } = open({
      instances: [{ id: 'a3f9c2d1e0b4c5d6e7f8', state: 'running', createdAt: at }],
      agents: [
        { id: 'writer', name: 'Writer' },
        { id: 'reviewer', name: 'Reviewer' },
      ],
      verified: true,
    });
    const note = within(dialog).getByTestId('config-in-use');
    expect(note.textContent).toContain('2 agents and 1 sandbox use this config');
    expect(within(note).getByRole('link', { name: 'Writer' }).getAttribute('href')).toBe('/agents/writer');
    expect(within(note).getByRole('link', { name: 'Reviewer' }).getAttribute('href')).toBe('/agents/reviewer');
    expect(within(note).getByRole('link', { name: 'a3f9c2d1e0b4' }).getAttribute('href')).toBe('/sandboxes/instances/a3f9c2d1e0b4c5d6e7f8');
    // The count is said once in the whole dialog.
    expect(dialog.textContent?.match(/2 agents/g)).toHaveLength(1);
    expect((within(dialog).getByRole('button', { name: 'Delete config' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says "uses" for one agent alone', () => {
    const { dialog } = open({ instances: [], agents: [{ id: 'writer', name: 'Writer' }], verified: true });
    expect(within(dialog).getByTestId('config-in-use').textContent).toContain('1 agent uses this config');
  });

  it('can be confirmed when nothing uses it', () => {
    const { dialog, onConfirm } = open({ instances: [], agents: [], verified: true });
    expect(within(dialog).queryByTestId('config-in-use')).toBeNull();
    const confirm = within(dialog).getByRole('button', { name: 'Delete config' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(false);
    confirm.click();
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('leaves the final word to the server when the engine could not be listed', () => {
    const { dialog } = open({ instances: [], agents: [], verified: false });
    expect(within(dialog).getByTestId('config-usage-unverified')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Delete config' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
