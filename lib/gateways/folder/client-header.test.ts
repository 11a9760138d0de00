import { describe, expect, it } from 'vitest';
import { type FolderClientReport, formatClientHeader, parseClientHeader } from './client-header';

const report: FolderClientReport = {
  id: 'a'.repeat(32),
  host: 'build-01',
  dir: '/srv/agents/skills; with=odd chars%',
  mode: 'events',
  pollMs: 2000,
  blocked: 3,
};

describe('the folder client header', () => {
  it('round-trips a report, odd characters in the folder included', () => {
    expect(parseClientHeader(formatClientHeader(report))).toEqual(report);
  });

  it.each([
    ['', 'without key=value'],
    ['id=abc', 'needs id'],
    [formatClientHeader(report).replace('mode=events', 'mode=sideways'), 'needs mode'],
    [formatClientHeader(report).replace('blocked=3', 'blocked=-1'), 'whole numbers'],
    [formatClientHeader(report).replace('poll=2000', 'poll=1e9'), 'whole numbers'],
    [`${formatClientHeader(report)}; extra=1`, 'unknown keys: extra'],
    [`${formatClientHeader(report)}; id=${'b'.repeat(32)}`, 'names id twice'],
    [formatClientHeader(report).replace(/dir=[^;]*/, 'dir=%E0%A4%A'), 'badly encoded dir'],
    [formatClientHeader(report).replace(/host=[^;]*/, 'host=a%0Ab'), 'needs host'],
    [formatClientHeader(report).replace(/dir=[^;]*/, `dir=${'x'.repeat(1025)}`), 'needs dir'],
    [`id=${'a'.repeat(32)};${' '.repeat(3000)}`, 'longer than 2048'],
  ])('refuses %j: it %s', (value, says) => {
    const r = parseClientHeader(value);
    expect(typeof r).toBe('string');
    expect(r).toContain(says);
  });
});
