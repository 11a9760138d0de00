// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jobOut } from '@/lib/api/schemas';
import { renderComponent } from '@/test/helpers/render-component';
import { JobsChart } from '../jobs/jobs-chart';
import { DurationBarChart, durationStats, durationUnit, OutcomeLegend } from './duration-chart';

const COLOURS = { succeeded: 'var(--success)', failed: 'var(--destructive)', canceled: 'var(--warning)' };

// A finished job as GET /api/v1/jobs answers it, checked against the contract's schema.
function job(id: string, state: 'succeeded' | 'failed' | 'canceled' | 'running', seconds: number, finishedMinute: number) {
  const start = Date.parse('2026-12-01T10:00:00.000Z') + finishedMinute * 60_000;
  return jobOut.parse({
    id,
    kind: 'package.install',
    title: `Install ${id}`,
    state,
    params: {},
    result: null,
    error: null,
    progressPercent: 100,
    progressStage: '',
    attempts: 1,
    maxAttempts: 1,
    cancelRequested: false,
    parentId: null,
    retryOf: null,
    createdByLabel: 'admin@example.test',
    logCount: 0,
    createdAt: new Date(start).toISOString(),
    startedAt: new Date(start).toISOString(),
    finishedAt: state === 'running' ? null : new Date(start + seconds * 1000).toISOString(),
  });
}

describe('the duration chart', () => {
  it('has a legend naming each outcome in its own colour', () => {
    renderComponent(
      <OutcomeLegend
        items={[
          { state: 'succeeded', label: 'Succeeded' },
          { state: 'failed', label: 'Failed' },
        ]}
        colours={COLOURS}
      />,
    );
    const items = within(screen.getByRole('list', { name: 'Legend' })).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['Succeeded', 'Failed']);
    expect(items.map((li) => (li.querySelector('span') as HTMLElement).style.background)).toEqual(['var(--success)', 'var(--destructive)']);
  });

  it('gives the plot the summary a screen reader hears', () => {
    renderComponent(
      <DurationBarChart
        points={[{ id: 'j1', title: 'Install a', state: 'succeeded', seconds: 3 }]}
        colours={COLOURS}
        className="h-32"
        label="Bar chart of how long the last 1 package jobs took"
        onOpen={() => {}}
        tip={() => null}
      />,
    );
    expect(screen.getByRole('img', { name: 'Bar chart of how long the last 1 package jobs took' }).className).toBe('h-32');
  });

  it('counts its axis in seconds, minutes past two minutes and hours past two hours', () => {
    expect(durationUnit([5, 119]).suffix).toBe('s');
    expect(durationUnit([5, 120]).suffix).toBe('m');
    expect(durationUnit([7200]).suffix).toBe('h');
    expect(durationUnit([]).suffix).toBe('s');
  });

  it('sums up the runs: count, median duration and share that succeeded', () => {
    const p = (state: string, seconds: number) => ({ id: `${state}${seconds}`, title: '', state, seconds });
    expect(durationStats([p('succeeded', 10), p('failed', 30), p('succeeded', 20)])).toEqual({ count: 3, medianMs: 20_000, successPercent: 67 });
    expect(durationStats([p('succeeded', 10), p('canceled', 30)])).toEqual({ count: 2, medianMs: 20_000, successPercent: 50 });
    expect(durationStats([])).toEqual({ count: 0, medianMs: 0, successPercent: 0 });
  });
});

describe('the jobs page chart on the shared duration chart', () => {
  it('says how many finished jobs it draws, their median and success rate, and leaves a running job out', () => {
    const jobs = [job('a', 'succeeded', 10, 0), job('b', 'failed', 30, 1), job('c', 'succeeded', 20, 2), job('d', 'running', 0, 3)];
    renderComponent(<JobsChart jobs={jobs} loading={false} error={null} />);
    expect(screen.getByText('Last 3 finished jobs · median 20s · 67% success')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Bar chart of the run time of the last 3 finished jobs' })).toBeTruthy();
    const legend = within(screen.getByRole('list', { name: 'Legend' })).getAllByRole('listitem');
    expect(legend.map((li) => li.textContent)).toEqual(['Success', 'Failure', 'Cancellation']);
  });

  it('says durations appear once jobs finish when none has', () => {
    renderComponent(<JobsChart jobs={[job('d', 'running', 0, 3)]} loading={false} error={null} />);
    expect(screen.getByText('Durations appear here once jobs finish.')).toBeTruthy();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('shows why the jobs could not be loaded', () => {
    renderComponent(<JobsChart jobs={undefined} loading={false} error={new Error('The job list could not be read')} />);
    expect(screen.getByRole('alert').textContent).toBe('The job list could not be read');
  });
});
