// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderComponent } from '@/test/helpers/render-component';
import { ProfileOptionGroups } from './profile-options';
import { profileLabel } from './view';

const ITEMS = [
  { name: 'balanced', builtin: true },
  { name: 'read_only', builtin: true },
  { name: 'ci-runner', builtin: false },
];
const groups = () =>
  [...screen.getByRole('combobox', { name: 'Profile' }).querySelectorAll('optgroup')].map((g) => ({
    label: g.label,
    options: within(g as HTMLElement)
      .getAllByRole('option')
      .map((o) => [(o as HTMLOptionElement).value, o.textContent]),
  }));

describe('the profile picker options', () => {
  it('lists the presets with the default marked, then the custom profiles by their own name', () => {
    renderComponent(
      <select aria-label="Profile">
        <ProfileOptionGroups items={ITEMS} defaultProfile="balanced" label={profileLabel} />
      </select>,
    );
    expect(groups()).toEqual([
      {
        label: 'Presets',
        options: [
          ['balanced', 'balanced (default)'],
          ['read_only', 'read only'],
        ],
      },
      { label: 'Custom', options: [['ci-runner', 'ci-runner']] },
    ]);
  });

  it('has no custom group when every profile is a preset, and marks none while the default is unknown', () => {
    renderComponent(
      <select aria-label="Profile">
        <ProfileOptionGroups items={ITEMS.filter((p) => p.builtin)} defaultProfile={undefined} />
      </select>,
    );
    expect(groups()).toEqual([
      {
        label: 'Presets',
        options: [
          ['balanced', 'balanced'],
          ['read_only', 'read_only'],
        ],
      },
    ]);
  });
});
