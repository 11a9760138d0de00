// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { updatesOut } from '@/lib/api/package-schemas';
import { renderComponent } from '@/test/helpers/render-component';
import { UpdatesBar } from './updates-bar';

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000 - 1000).toISOString();
const source = (name: string, s: { checkedAt: string | null; attemptedAt: string | null; error?: string }) => ({
  source: name,
  checkedAt: s.checkedAt,
  attemptedAt: s.attemptedAt,
  error: s.error ?? null,
  stale: !s.checkedAt || !!s.error,
  packageErrors: 0,
});

// What GET /api/v1/packages/updates answers, checked against the contract's own schema. Its
// `checkedAt` is the oldest successful check of all sources: null while one never succeeded.
function view(sources: ReturnType<typeof source>[], rowCheckedAt: string) {
  const times = sources.map((s) => s.checkedAt);
  return updatesOut.parse({
    updates: [
      {
        source: 'npm',
        name: 'is-number',
        spec: 'npm:is-number',
        current: '6.0.0',
        latest: '7.0.0',
        prerelease: false,
        checkedAt: rowCheckedAt,
        firstSeenAt: rowCheckedAt,
        checkError: null,
        pinned: false,
        pinReason: null,
        lastJobId: null,
        lastError: null,
        lastAttemptAt: null,
      },
    ],
    pins: [],
    sources,
    checkedAt: times.includes(null) ? null : (times as string[]).sort()[0],
    ageSeconds: null,
    ttlSeconds: 3600,
    stale: sources.some((s) => s.stale),
    refreshJobId: null,
  });
}

function bar(v: ReturnType<typeof view>) {
  renderComponent(<UpdatesBar view={v} loading={false} error={null} onRetry={() => {}} onUpdateAll={() => {}} />);
  return screen.getByTestId('updates-checked');
}

describe('when updates were last checked', () => {
  it('gives the time of the last check, not "never" because one source has never succeeded, and says which source failed', () => {
    const v = view(
      [
        source('pip', { checkedAt: ago(2), attemptedAt: ago(2) }),
        source('npm', { checkedAt: ago(2), attemptedAt: ago(2) }),
        source('github', { checkedAt: null, attemptedAt: ago(2), error: 'api.github.com could not be reached' }),
      ],
      ago(2),
    );
    expect(v.checkedAt).toBeNull();
    const line = bar(v);
    expect(line.textContent).toBe('Last checked 2 minutes ago · github: failed 2 minutes ago, last succeeded never');
    // The row of the same check says the same time.
    expect(v.updates[0].checkedAt).toBe(line.querySelector('time')?.getAttribute('dateTime'));
  });

  it('names the source whose results are older than the last check, with its own time', () => {
    const line = bar(
      view(
        [
          source('pip', { checkedAt: ago(3), attemptedAt: ago(3) }),
          source('npm', { checkedAt: ago(3), attemptedAt: ago(3) }),
          source('github', { checkedAt: ago(2 * 24 * 60), attemptedAt: ago(3), error: 'rate limited' }),
        ],
        ago(3),
      ),
    );
    expect(line.textContent).toBe('Last checked 3 minutes ago · github: failed 3 minutes ago, last succeeded 2 days ago');
    const github = line.querySelector('[data-source="github"]') as HTMLElement;
    expect(
      within(github)
        .getAllByText(/ago/)
        .map((t) => t.tagName),
    ).toEqual(['TIME', 'TIME']);
  });

  it('says one time when every source succeeded in the last check', () => {
    const line = bar(view([source('pip', { checkedAt: ago(10), attemptedAt: ago(10) }), source('npm', { checkedAt: ago(10), attemptedAt: ago(10) })], ago(10)));
    expect(line.textContent).toBe('Last checked 10 minutes ago');
  });
});
