// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderComponent } from '@/test/helpers/render-component';
import { StatsPlot } from './stats-chart';

describe('the CPU and memory chart', () => {
  it('has a legend naming each line and the axis it is read on', () => {
    renderComponent(
      <StatsPlot
        points={[
          { t: '10:00:00', cpu: 12.5, mem: 48.2 },
          { t: '10:00:03', cpu: 40, mem: 51 },
        ]}
      />,
    );
    const items = within(screen.getByRole('list', { name: 'Legend' })).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['CPU % (left axis)', 'Memory MiB (right axis)']);
    // Each entry carries its line's colour.
    expect(items.map((li) => (li.querySelector('span') as HTMLElement).style.background)).toEqual(['var(--primary)', 'var(--success)']);
  });
});
