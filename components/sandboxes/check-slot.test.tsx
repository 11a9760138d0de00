// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { configListItem } from '@/test/helpers/config-views';
import { renderComponent } from '@/test/helpers/render-component';
import { CheckReportSlot } from './check-slot';

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000 - 1000).toISOString();
const report = (passed: boolean) => ({
  probes: [{ name: 'image', status: passed ? 'pass' : 'fail', latencyMs: 40, reason: passed ? undefined : 'image not found' }],
  passed,
  startedAt: ago(5),
  durationMs: 900,
});

// One item of GET /api/v1/sandbox-configs, checked against the contract.
function card(check: { lastCheckAt: string | null; lastCheckPassedAt: string | null; lastCheckReport: unknown }) {
  const config = configListItem(check, ago(60 * 24 * 7));
  renderComponent(<CheckReportSlot config={config} />);
  return screen.getByTestId('check-times').textContent;
}

describe('the last full check of a sandbox config', () => {
  it('says the last check failed, and when one last passed', () => {
    expect(card({ lastCheckAt: ago(5), lastCheckPassedAt: ago(2 * 24 * 60), lastCheckReport: report(false) })).toBe(
      'Last check: failed 5 minutes ago · last passed 2 days ago',
    );
  });

  it('shows one time when the last check passed', () => {
    const at = ago(5);
    expect(card({ lastCheckAt: at, lastCheckPassedAt: at, lastCheckReport: report(true) })).toBe('Last check: passed 5 minutes ago');
  });

  it('says a failing config never passed', () => {
    expect(card({ lastCheckAt: ago(5), lastCheckPassedAt: null, lastCheckReport: report(false) })).toBe('Last check: failed 5 minutes ago · never passed');
  });

  it('reads the outcome from the times when no report was kept', () => {
    expect(card({ lastCheckAt: ago(5), lastCheckPassedAt: ago(60), lastCheckReport: null })).toBe('Last check: failed 5 minutes ago · last passed 1 hour ago');
  });
});
