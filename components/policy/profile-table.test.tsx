// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { profileListOut } from '@/lib/api/policy-schemas';
import { presetRules } from '@/lib/policy/profiles/presets';
import { renderComponent } from '@/test/helpers/render-component';
import { ProfileTable } from './profile-table';

const at = '2026-12-01T10:00:00.000Z';
// A list as GET /api/v1/exec-policy/profiles answers it: a preset with its real rules, and a custom profile.
const { items } = profileListOut.parse({
  defaultProfile: 'balanced',
  items: [
    {
      name: 'balanced',
      description: 'The default',
      rules: presetRules('balanced'),
      builtin: true,
      revision: 0,
      usedBy: ['writer'],
      createdAt: null,
      createdBy: null,
      updatedAt: null,
      updatedBy: null,
    },
    {
      name: 'ci-runner',
      description: 'Builds only',
      rules: presetRules('locked_down'),
      builtin: false,
      revision: 3,
      usedBy: [],
      createdAt: at,
      createdBy: 'admin@example.test',
      updatedAt: at,
      updatedBy: 'admin@example.test',
    },
  ],
});

const row = (name: string) => document.querySelector(`[data-profile="${name}"]`) as HTMLElement;

describe('the profiles table', () => {
  it('offers view and duplicate on a preset, never a pencil', () => {
    renderComponent(<ProfileTable title="Presets" rows={items.slice(0, 1)} loading={false} defaultProfile="balanced" canWrite />);
    const preset = row('balanced');
    expect(within(preset).queryByRole('link', { name: 'Edit balanced' })).toBeNull();
    expect(within(preset).getByRole('link', { name: 'View balanced' }).querySelector('.lucide-eye')).not.toBeNull();
    expect(preset.querySelector('.lucide-pencil')).toBeNull();
    expect(within(preset).getByRole('link', { name: 'Duplicate balanced' }).getAttribute('href')).toBe('/policy/new?from=balanced');
  });

  it('edits a custom profile with the pencil, and shows it read-only to a viewer', () => {
    renderComponent(<ProfileTable title="Custom profiles" rows={items.slice(1)} loading={false} canWrite />);
    expect(within(row('ci-runner')).getByRole('link', { name: 'Edit ci-runner' }).querySelector('.lucide-pencil')).not.toBeNull();
  });

  it('shows a viewer the eye, and a disabled duplicate on presets', () => {
    renderComponent(<ProfileTable title="All" rows={items} loading={false} canWrite={false} why="Needs the admin role (you are viewer)." />, {
      role: 'viewer',
    });
    expect(screen.queryAllByRole('link', { name: /^Edit / })).toHaveLength(0);
    expect(document.querySelector('.lucide-pencil')).toBeNull();
    expect((within(row('balanced')).getByRole('button', { name: 'Duplicate balanced' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(row('ci-runner')).queryByRole('button', { name: /Duplicate/ })).toBeNull();
  });
});
