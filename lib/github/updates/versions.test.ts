import { describe, expect, it } from 'vitest';
import { compareReleases, isNewer, isPrerelease, isPrereleaseTag, normalizeTag, pickLatest, type ReleaseLike, semverOf } from './versions';

const R = (tag: string, publishedAt: string | null, more: Partial<ReleaseLike> = {}): ReleaseLike => ({ tag, publishedAt, ...more });
const tags = (r: ReleaseLike | undefined) => r?.tag;

describe('normalizeTag / semverOf', () => {
  it.each([
    ['v1.2.3', undefined, '1.2.3'],
    ['V1.2.3', undefined, '1.2.3'],
    ['1.2.3', undefined, '1.2.3'],
    ['cli-v2.1.0', 'cli-v', '2.1.0'],
    ['cli-v2.1.0', 'cli-', '2.1.0'],
    ['cli-v2.1.0', undefined, 'cli-v2.1.0'],
    ['sdk-v3.0.0', 'cli-v', 'sdk-v3.0.0'],
    ['version', undefined, 'version'],
    [' v0.40.2 ', undefined, '0.40.2'],
  ])('normalizeTag(%j, %j) = %j', (tag, prefix, expected) => {
    expect(normalizeTag(tag, prefix)).toBe(expected);
  });

  it.each([
    ['v14.1.0', '14.1.0'],
    ['v1.0.0-rc.1', '1.0.0-rc.1'],
    ['v1.2', null],
    ['jq-1.7.1', null],
    ['nightly', null],
    ['2024-01-05', null],
    ['1.2.3.4', null],
    ['01.2.3', null],
  ])('semverOf(%j) = %j (no coercion)', (tag, expected) => {
    expect(semverOf(tag)).toBe(expected);
  });

  it('semverOf uses the prefix', () => {
    expect(semverOf('cli-v2.1.0', 'cli-v')).toBe('2.1.0');
    expect(semverOf('cli-v2.1.0')).toBeNull();
  });
});

describe('isPrereleaseTag / isPrerelease', () => {
  it.each([
    ['v1.0.0-rc.1', true],
    ['v1.0.0-beta', true],
    ['v2.0.0-alpha.3', true],
    ['v1.0.0', false],
    ['v1.0.0+build.dev', false],
    ['nightly', true],
    ['nightly-2024-01-05', true],
    ['v1.2-dev3', true],
    ['1.0-preview', true],
    ['snapshot', true],
    ['v1.2', false],
    ['release-2024-01', false],
    ['developer-tools-1.0.0', false],
  ])('%s → %s', (tag, expected) => {
    expect(isPrereleaseTag(tag)).toBe(expected);
  });

  it('the GitHub flag alone is enough', () => {
    expect(isPrerelease(R('v1.0.0', null, { prerelease: true }))).toBe(true);
    expect(isPrerelease(R('v1.0.0', null, { prerelease: false }))).toBe(false);
    expect(isPrerelease(R('cli-v1.0.0-rc.1', null), 'cli-v')).toBe(true);
  });
});

describe('compareReleases', () => {
  it('1.10.0 is above 1.9.0 (not a string compare)', () => {
    expect(compareReleases(R('v1.10.0', '2024-01-01T00:00:00Z'), R('v1.9.0', '2024-06-01T00:00:00Z'))).toBe(1);
    expect(compareReleases(R('v1.9.0', '2024-06-01T00:00:00Z'), R('v1.10.0', '2024-01-01T00:00:00Z'))).toBe(-1);
  });

  it('a pre-release is below its release; v and no v are equal', () => {
    expect(compareReleases(R('v2.0.0-rc.1', null), R('2.0.0', null))).toBe(-1);
    expect(compareReleases(R('v2.0.0', '2024-01-01'), R('2.0.0', '2025-01-01'))).toBe(0);
  });

  it('with a prefix, cli-v2.10.0 is above cli-v2.9.0', () => {
    expect(compareReleases(R('cli-v2.10.0', '2024-01-01'), R('cli-v2.9.0', '2024-02-01'), { tagPrefix: 'cli-v' })).toBe(1);
  });

  it('non-semver on either side: by published date, never by string', () => {
    // As strings "jq-1.10" < "jq-1.9"; by date the 1.10 release is newer.
    expect(compareReleases(R('jq-1.10', '2025-01-01T00:00:00Z'), R('jq-1.9', '2024-01-01T00:00:00Z'))).toBe(1);
    expect(compareReleases(R('nightly', '2024-03-01T00:00:00Z'), R('v1.0.0', '2024-02-01T00:00:00Z'))).toBe(1);
    expect(compareReleases(R('v1.2', '2024-01-01T00:00:00Z'), R('v1.1.0', '2024-02-01T00:00:00Z'))).toBe(-1);
  });

  it('non-semver without a date compares equal (no string fallback)', () => {
    expect(compareReleases(R('b', null), R('a', '2024-01-01'))).toBe(0);
    expect(compareReleases(R('a', null), R('b', null))).toBe(0);
  });
});

describe('pickLatest', () => {
  const list = [
    R('v1.9.1', '2024-07-01T00:00:00Z'),
    R('v2.0.0-rc.1', '2024-06-15T00:00:00Z', { prerelease: true }),
    R('v1.10.0', '2024-06-01T00:00:00Z'),
    R('v1.9.0', '2024-05-01T00:00:00Z'),
    R('v3.0.0', null, { draft: true }),
  ];

  it('stable: highest semver, not the first item nor the newest date', () => {
    expect(tags(pickLatest(list, { channel: 'stable' }))).toBe('v1.10.0');
  });

  it('pre-release channel: the highest semver including pre-releases; drafts never', () => {
    expect(tags(pickLatest(list, { channel: 'prerelease' }))).toBe('v2.0.0-rc.1');
    expect(tags(pickLatest([R('v3.0.0', null, { draft: true })], { channel: 'prerelease' }))).toBeUndefined();
  });

  it('a semver pre-release part counts even without the GitHub flag', () => {
    expect(tags(pickLatest([R('v2.0.0-beta.1', '2024-02-01'), R('v1.0.0', '2024-01-01')], { channel: 'stable' }))).toBe('v1.0.0');
  });

  it('nightly tags: excluded from stable; on pre-release they win only when published after the best semver', () => {
    const withNightly = [R('nightly', '2024-08-01T00:00:00Z', { prerelease: true }), R('v1.2.0', '2024-07-01T00:00:00Z')];
    expect(tags(pickLatest(withNightly, { channel: 'stable' }))).toBe('v1.2.0');
    expect(tags(pickLatest(withNightly, { channel: 'prerelease' }))).toBe('nightly');
    const staleNightly = [R('nightly', '2024-06-01T00:00:00Z', { prerelease: true }), R('v1.2.0', '2024-07-01T00:00:00Z')];
    expect(tags(pickLatest(staleNightly, { channel: 'prerelease' }))).toBe('v1.2.0');
  });

  it('only non-semver tags: the newest by date', () => {
    const jq = [R('jq-1.6', '2018-11-02T00:00:00Z'), R('jq-1.7.1', '2023-12-13T00:00:00Z'), R('jq-1.7', '2023-09-07T00:00:00Z')];
    expect(tags(pickLatest(jq, { channel: 'stable' }))).toBe('jq-1.7.1');
    expect(tags(pickLatest([R('edge', null), R('latest-build', '2024-01-01T00:00:00Z')], { channel: 'prerelease' }))).toBe('latest-build');
  });

  it('a tag prefix keeps only that component of a monorepo', () => {
    const mono = [R('sdk-v9.0.0', '2024-09-01'), R('cli-v2.10.0', '2024-08-01'), R('cli-v2.9.0', '2024-08-15')];
    expect(tags(pickLatest(mono, { channel: 'stable', tagPrefix: 'cli-v' }))).toBe('cli-v2.10.0');
  });

  it('minimum age: the newest release at least N days old', () => {
    const now = new Date('2024-07-10T00:00:00Z');
    const recent = [R('v1.3.0', '2024-07-08T00:00:00Z'), R('v1.2.0', '2024-06-01T00:00:00Z'), R('v1.4.0', null)];
    expect(tags(pickLatest(recent, { channel: 'stable', minAgeDays: 7, now }))).toBe('v1.2.0');
    expect(tags(pickLatest(recent, { channel: 'stable', minAgeDays: 1, now }))).toBe('v1.3.0');
    expect(tags(pickLatest(recent, { channel: 'stable', now }))).toBe('v1.4.0');
    expect(tags(pickLatest(recent, { channel: 'stable', minAgeDays: 60, now }))).toBeUndefined();
  });

  it('an empty list has no latest', () => {
    expect(pickLatest([], { channel: 'prerelease' })).toBeUndefined();
  });
});

describe('isNewer', () => {
  it('semver: greater only, never a downgrade', () => {
    expect(isNewer(R('v1.9.0', '2024-01-01'), R('v1.10.0', '2023-01-01'))).toBe(true);
    expect(isNewer(R('v1.10.0', '2023-01-01'), R('v1.9.0', '2024-01-01'))).toBe(false);
    expect(isNewer(R('v1.10.0', null), R('1.10.0', null))).toBe(false);
    expect(isNewer(R('v2.0.0-rc.1', null), R('v2.0.0', null))).toBe(true);
  });

  it('mixed or non-semver: by published date, strictly later', () => {
    expect(isNewer(R('v1.2.0', '2024-01-01T00:00:00Z'), R('nightly', '2024-02-01T00:00:00Z'))).toBe(true);
    expect(isNewer(R('nightly', '2024-02-01T00:00:00Z'), R('v1.2.0', '2024-01-01T00:00:00Z'))).toBe(false);
    expect(isNewer(R('nightly', '2024-02-01T00:00:00Z'), R('nightly', '2024-02-02T00:00:00Z'))).toBe(true);
    expect(isNewer(R('nightly', '2024-02-01T00:00:00Z'), R('nightly', '2024-02-01T00:00:00Z'))).toBe(false);
    expect(isNewer(R('jq-1.9', '2024-01-01T00:00:00Z'), R('jq-1.10', '2025-01-01T00:00:00Z'))).toBe(true);
  });

  it('an unknown date is never an update', () => {
    expect(isNewer(R('nightly', null), R('nightly-2', '2024-01-01'))).toBe(false);
    expect(isNewer(R('nightly', '2024-01-01'), R('zzz', null))).toBe(false);
  });

  it('with a prefix, cli-v2.10.0 updates cli-v2.9.0', () => {
    expect(isNewer(R('cli-v2.9.0', '2024-02-01'), R('cli-v2.10.0', '2024-01-01'), { tagPrefix: 'cli-v' })).toBe(true);
    expect(isNewer(R('cli-v2.10.0', '2024-01-01'), R('cli-v2.9.0', '2024-02-01'), { tagPrefix: 'cli-v' })).toBe(false);
  });

  it('accepts Date objects', () => {
    expect(isNewer(R('a', null, { publishedAt: new Date('2024-01-01') }), R('b', null, { publishedAt: new Date('2024-01-02') }))).toBe(true);
  });
});
