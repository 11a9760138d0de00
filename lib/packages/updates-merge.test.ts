import { describe, expect, it } from 'vitest';
import { planMerge, type UpdateRow } from './updates-merge';

const t0 = new Date('2026-01-01T00:00:00Z');
const t1 = new Date('2026-01-02T00:00:00Z');
const row = (name: string, current: string, latest: string, extra: Partial<UpdateRow> = {}): UpdateRow => ({
  source: 'npm',
  name,
  current,
  latest,
  prerelease: false,
  checkedAt: t0,
  firstSeenAt: t0,
  checkError: null,
  lastJobId: null,
  lastError: null,
  lastAttemptAt: null,
  ...extra,
});

describe('planMerge (merge, never replace)', () => {
  const previous = [row('a', '1.0.0', '2.0.0'), row('b', '1.0.0', '1.5.0', { lastError: 'ETARGET', lastJobId: 'j1' }), row('c', '3.0.0', '3.1.0')];

  it('changes nothing when the whole source failed', () => {
    expect(planMerge(previous, { source: 'npm', ok: false, error: 'registry unreachable' }, t1)).toEqual({ upserts: [], deletes: [] });
  });

  it('keeps a package whose own check failed, marking it, and drops only packages checked and no longer outdated', () => {
    const plan = planMerge(
      previous,
      { source: 'npm', ok: true, outdated: [{ manager: 'npm', name: 'a', current: '1.0.0', latest: '2.1.0' }], errors: [{ name: 'b', message: 'timed out' }] },
      t1,
    );
    expect(plan.deletes).toEqual(['c']);
    const a = plan.upserts.find((u) => u.name === 'a')!;
    expect(a).toMatchObject({ latest: '2.1.0', checkedAt: t1, firstSeenAt: t0, checkError: null });
    const b = plan.upserts.find((u) => u.name === 'b')!;
    expect(b).toMatchObject({ latest: '1.5.0', checkedAt: t0, checkError: 'timed out', lastError: 'ETARGET', lastJobId: 'j1' });
  });

  it('an unchanged answer keeps the entry and its first-seen time; a moved installed version clears the old failure', () => {
    const plan = planMerge(
      previous,
      {
        source: 'npm',
        ok: true,
        outdated: [
          { manager: 'npm', name: 'b', current: '1.0.0', latest: '1.5.0' },
          { manager: 'npm', name: 'c', current: '3.0.5', latest: '3.1.0' },
        ],
        errors: [],
      },
      t1,
    );
    expect(plan.upserts.find((u) => u.name === 'b')).toMatchObject({ firstSeenAt: t0, checkedAt: t1, lastError: 'ETARGET' });
    expect(plan.upserts.find((u) => u.name === 'c')).toMatchObject({ current: '3.0.5', lastError: null });
    expect(plan.deletes).toEqual(['a']);
  });

  it('normalises pip names so one package is one row', () => {
    const plan = planMerge(
      [{ ...row('typing-extensions', '4.0', '4.1'), source: 'pip' }],
      { source: 'pip', ok: true, outdated: [{ manager: 'pip', name: 'Typing_Extensions', current: '4.0', latest: '4.2' }], errors: [] },
      t1,
    );
    expect(plan.deletes).toEqual([]);
    expect(plan.upserts).toHaveLength(1);
    expect(plan.upserts[0]).toMatchObject({ name: 'typing-extensions', latest: '4.2', firstSeenAt: t0 });
  });

  it('ignores rows of other sources', () => {
    const plan = planMerge([{ ...row('x', '1', '2'), source: 'pip' }], { source: 'npm', ok: true, outdated: [], errors: [] }, t1);
    expect(plan).toEqual({ upserts: [], deletes: [] });
  });
});
