// @vitest-environment happy-dom
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { profileListOut } from '@/lib/api/policy-schemas';
import { presetRules } from '@/lib/policy/profiles/presets';
import { renderComponent } from '@/test/helpers/render-component';
import { ProfilesPage } from './profiles-page';

const at = '2026-12-01T10:00:00.000Z';
const custom = (name: string, usedBy: string[]) => ({
  name,
  description: '',
  rules: presetRules('locked_down'),
  builtin: false,
  revision: 1,
  usedBy,
  createdAt: at,
  createdBy: 'admin@example.test',
  updatedAt: at,
  updatedBy: 'admin@example.test',
});
// GET /api/v1/exec-policy/profiles, checked against its contract.
const list = profileListOut.parse({ defaultProfile: 'balanced', items: [custom('ci-runner', ['builder', 'tester']), custom('spare', [])] });

function openDelete(name: string) {
  renderComponent(<ProfilesPage />, { url: '/policy', queries: [[['exec-policy', 'profiles'], list]] });
  fireEvent.click(screen.getByRole('button', { name: `Delete ${name}` }));
  return screen.getByRole('alertdialog');
}

describe('deleting a profile', () => {
  it('names the agents deciding with it and cannot be confirmed while they do', () => {
    const dialog = openDelete('ci-runner');
    expect(within(dialog).getByTestId('profile-in-use').textContent).toBe(
      '2 agents decide with it, so it cannot be deleted: builder, tester. Move them to another profile first.',
    );
    expect((within(dialog).getByRole('button', { name: 'Delete profile' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('can be confirmed when no agent uses it', () => {
    const dialog = openDelete('spare');
    expect(within(dialog).queryByTestId('profile-in-use')).toBeNull();
    expect((within(dialog).getByRole('button', { name: 'Delete profile' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
