import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isAppError } from '../core/errors';
import { runProcess } from '../core/process';
import { compareDebian, comparePep440, compareSemver, isPep440Prerelease, isSemverPrerelease, parseDebianVersion } from './versions';

const DPKG = fs.existsSync('/usr/bin/dpkg') ? '/usr/bin/dpkg' : null;

const DEBIAN_PAIRS: [string, string][] = [
  ['1.0', '1.0'],
  ['1.0', '1.0-0'],
  ['1.0-0', '1.0-1'],
  ['1.0~rc1', '1.0'],
  ['1.0~rc1', '1.0~rc2'],
  ['1.0~~', '1.0~'],
  ['1.0~', '1.0'],
  ['1.0~~a', '1.0~~'],
  ['1.0', '1.0a'],
  ['1.0a', '1.0+'],
  ['1.0+', '1.0.'],
  ['1.0.', '1.0.0'],
  ['1:1.0', '2.0'],
  ['0:1.0', '1.0'],
  ['2:0.1', '1:9.9'],
  ['10:1', '9:1'],
  ['1.0-1', '1.0-1ubuntu1'],
  ['1.0-1ubuntu1', '1.0-1ubuntu2'],
  ['1.0-1ubuntu1', '1.0-1build1'],
  ['1.0-1+deb12u1', '1.0-1'],
  ['1.0-1~deb12u1', '1.0-1'],
  ['1.10', '1.9'],
  ['1.09', '1.9'],
  ['1.010', '1.9'],
  ['1.0.0', '1.0'],
  ['1.00', '1.0'],
  ['1.2.3', '1.2.10'],
  ['a', '+'],
  ['a', 'b'],
  ['A', 'a'],
  ['Z', 'a'],
  ['+', '.'],
  ['1.0-1', '1.0-1.'],
  ['1a', '1+'],
  ['1~', '1'],
  ['1~a', '1~b'],
  ['1.0-a', '1.0-+'],
  ['2.36-9+deb12u14', '2.36-9+deb12u4'],
  ['2.36-9+deb12u4', '2.36-9+deb12u10'],
  ['7.88.1-10+deb12u5', '7.88.1-10+deb12u12'],
  ['1:2.39.5-0+deb12u1', '1:2.39.2-1.1'],
  ['3.0.13-1~deb12u1', '3.0.11-1~deb12u2'],
  ['1.2.3-1-2', '1.2.3-1-10'],
  ['1.2.3-1-2', '1.2.3-12'],
  ['1:1.0-1:2', '1:1.0-1:10'],
  ['0.9.9', '1'],
  ['20240101', '2024.01.01'],
  ['1.0+dfsg-1', '1.0-1'],
  ['1.0+dfsg1', '1.0+dfsg'],
  ['2.0rc1', '2.0'],
  ['2.0~beta1', '2.0~alpha1'],
  ['1.0.0~git20240101.abc', '1.0.0'],
  ['5:7.0.2-2', '7:4.4.2-1'],
  ['4.19.0-1', '4.19.0-1+b1'],
  ['1.0-1.1', '1.0-1'],
  ['0.0.0', '0'],
  ['00', '0'],
  ['1.0-0ubuntu0.22.04.1', '1.0-0ubuntu0.20.04.1'],
  ['8.2p1-4', '8.2p1-4ubuntu0.5'],
  ['9.2p1-2+deb12u3', '9.2p1-2+deb12u2'],
  ['1:9.2p1', '9.3p1'],
  ['~', '0'],
  ['1.0~rc1-1', '1.0-0'],
];

async function dpkgOrder(a: string, b: string): Promise<number> {
  const results = await Promise.all(
    (['lt', 'eq', 'gt'] as const).map(async (op) => {
      const r = await runProcess(DPKG!, ['--compare-versions', a, op, b], { timeoutMs: 10_000 });
      return r.code === 0;
    }),
  );
  expect(results.filter(Boolean), `dpkg on ${a} vs ${b}`).toHaveLength(1);
  return results.indexOf(true) - 1;
}

describe('compareDebian', () => {
  it.skipIf(!DPKG)(
    `agrees with dpkg --compare-versions on ${DEBIAN_PAIRS.length} pairs`,
    async () => {
      const mismatches: string[] = [];
      await Promise.all(
        DEBIAN_PAIRS.map(async ([a, b]) => {
          const expected = await dpkgOrder(a, b);
          if (compareDebian(a, b) !== expected) mismatches.push(`${a} vs ${b}: ours ${compareDebian(a, b)}, dpkg ${expected}`);
          if (compareDebian(b, a) !== -expected) mismatches.push(`${b} vs ${a}: ours ${compareDebian(b, a)}, dpkg ${-expected}`);
        }),
      );
      expect(mismatches).toEqual([]);
    },
    60_000,
  );

  it('orders the well-known cases', () => {
    expect(compareDebian('1.0~rc1', '1.0')).toBe(-1);
    expect(compareDebian('1:1.0', '2.0')).toBe(1);
    expect(compareDebian('1.0-1', '1.0-1ubuntu1')).toBe(-1);
    expect(compareDebian('1.10', '1.9')).toBe(1);
    expect(compareDebian('a', '+')).toBe(-1);
    expect(compareDebian('1.0', '1.0-0')).toBe(0);
  });

  it('parses epoch, upstream and revision like dpkg', () => {
    expect(parseDebianVersion('1:2.3-4-5')).toEqual({ epoch: 1, upstream: '2.3-4', revision: '5' });
    expect(parseDebianVersion('2.3')).toEqual({ epoch: 0, upstream: '2.3', revision: '' });
  });

  it.each(['', 'a b', 'x:1.0', '1.0-', ':1.0', '1.0;rm', '1.0\n'])('rejects %j as a VALIDATION error', (v) => {
    try {
      compareDebian(v, '1.0');
      throw new Error('expected a rejection');
    } catch (e) {
      expect(isAppError(e) && e.code).toBe('validation');
    }
  });
});

describe('comparePep440', () => {
  it.each([
    ['1.10.0', '1.9.0', 1],
    ['1.0rc1', '1.0', -1],
    ['1.0a1', '1.0b1', -1],
    ['1.0b2', '1.0rc1', -1],
    ['1.0.post1', '1.0', 1],
    ['1.0.post1', '1.1', -1],
    ['1!1.0', '2.0', 1],
    ['1.0.dev1', '1.0a1', -1],
    ['1.0.dev1', '1.0.dev2', -1],
    ['1.0.dev1', '1.0', -1],
    ['1.0a1.dev1', '1.0a1', -1],
    ['1.0', '1.0.0', 0],
    ['1.0+local', '1.0', 1],
    ['2.31.0', '2.4.0', 1],
    ['1.0-rc1', '1.0rc1', 0],
    ['v1.0', '1.0', 0],
  ])('%s vs %s → %d', (a, b, expected) => {
    expect(comparePep440(a, b)).toBe(expected);
    expect(comparePep440(b, a)).toBe(-expected || 0);
  });

  it('sorts a release history', () => {
    const sorted = ['1.0', '1.0.post1', '1.0rc1', '0.9', '1.0.dev0', '1.1a1', '1!0.1', '1.0b1'].sort(comparePep440);
    expect(sorted).toEqual(['0.9', '1.0.dev0', '1.0b1', '1.0rc1', '1.0', '1.0.post1', '1.1a1', '1!0.1']);
  });

  it('rejects an invalid version with VALIDATION instead of crashing', () => {
    expect(() => comparePep440('not a version', '1.0')).toThrow(/not a valid PEP 440 version/);
  });

  it('knows pre-releases', () => {
    expect(isPep440Prerelease('1.0rc1')).toBe(true);
    expect(isPep440Prerelease('1.0.dev3')).toBe(true);
    expect(isPep440Prerelease('2.0b1')).toBe(true);
    expect(isPep440Prerelease('1.0')).toBe(false);
    expect(isPep440Prerelease('1.0.post1')).toBe(false);
    expect(isPep440Prerelease('garbage')).toBe(false);
  });
});

describe('compareSemver', () => {
  it.each([
    ['1.10.0', '1.9.0', 1],
    ['1.0.0-rc.1', '1.0.0', -1],
    ['1.0.0-alpha', '1.0.0-alpha.1', -1],
    ['1.0.0-alpha.beta', '1.0.0-beta', -1],
    ['1.0.0-beta.2', '1.0.0-beta.11', -1],
    ['1.0.0+build.1', '1.0.0+build.2', 0],
    ['v2.40.0', '2.39.9', 1],
    ['0.0.1', '0.0.1', 0],
  ])('%s vs %s → %d', (a, b, expected) => {
    expect(compareSemver(a, b)).toBe(expected);
    expect(compareSemver(b, a)).toBe(-expected || 0);
  });

  it('rejects non-semver with VALIDATION', () => {
    expect(() => compareSemver('1.2', '1.2.0')).toThrow(/not a valid semver version/);
  });

  it('knows pre-releases', () => {
    expect(isSemverPrerelease('1.0.0-rc.1')).toBe(true);
    expect(isSemverPrerelease('v2.0.0-beta')).toBe(true);
    expect(isSemverPrerelease('1.0.0')).toBe(false);
    expect(isSemverPrerelease('1.0.0+build')).toBe(false);
    expect(isSemverPrerelease('nope')).toBe(false);
  });
});
