import { compare as pep440Compare, explain as pep440Explain } from '@renovatebot/pep440';
import semver from 'semver';
import { AppError } from '../core/errors';

/** Version ordering per manager: never compare version strings as strings. */

function invalid(kind: string, v: string): AppError {
  const message = `"${String(v).slice(0, 100)}" is not a valid ${kind} version.`;
  return new AppError('validation', message, { issues: [{ path: 'version', message }] });
}

const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

/** PEP 440 ordering (pip): -1, 0 or 1. Throws VALIDATION for a version PEP 440 cannot parse. */
export function comparePep440(a: string, b: string): number {
  if (!pep440Explain(a)) throw invalid('PEP 440', a);
  if (!pep440Explain(b)) throw invalid('PEP 440', b);
  return sign(pep440Compare(a, b));
}

/** Pre-releases and dev releases (1.0rc1, 1.0.dev3); false for versions PEP 440 cannot parse. */
export function isPep440Prerelease(v: string): boolean {
  return pep440Explain(v)?.is_prerelease ?? false;
}

function parseSemver(v: string): semver.SemVer {
  const parsed = semver.parse(v);
  if (!parsed) throw invalid('semver', v);
  return parsed;
}

/** Semver ordering (npm, GitHub tags; a leading `v` is accepted): -1, 0 or 1. */
export function compareSemver(a: string, b: string): number {
  return semver.compare(parseSemver(a), parseSemver(b));
}

export function isSemverPrerelease(v: string): boolean {
  return (semver.parse(v)?.prerelease.length ?? 0) > 0;
}

// dpkg lib/dpkg/version.c, `order` and `verrevcmp`.
const isDigit = (c: number) => c >= 48 && c <= 57;
const isAlpha = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

function order(c: number): number {
  if (isDigit(c)) return 0;
  if (isAlpha(c)) return c;
  if (c === 126) return -1; // '~' sorts before everything, even the end of the string
  if (c) return c + 256;
  return 0;
}

function verrevcmp(a: string, b: string): number {
  // Char code 0 plays the C string terminator.
  const at = (s: string, i: number) => (i < s.length ? s.charCodeAt(i) : 0);
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    let firstDiff = 0;
    while ((i < a.length && !isDigit(at(a, i))) || (j < b.length && !isDigit(at(b, j)))) {
      const ac = order(at(a, i));
      const bc = order(at(b, j));
      if (ac !== bc) return ac - bc;
      i++;
      j++;
    }
    while (at(a, i) === 48) i++;
    while (at(b, j) === 48) j++;
    while (isDigit(at(a, i)) && isDigit(at(b, j))) {
      if (!firstDiff) firstDiff = at(a, i) - at(b, j);
      i++;
      j++;
    }
    if (isDigit(at(a, i))) return 1;
    if (isDigit(at(b, j))) return -1;
    if (firstDiff) return firstDiff;
  }
  return 0;
}

interface DebianVersion {
  epoch: number;
  upstream: string;
  revision: string;
}

const DEBIAN_CHARS = /^[A-Za-z0-9.+~:-]+$/;

/** dpkg's parseversion: `[epoch:]upstream[-revision]`, the revision after the last '-'. */
export function parseDebianVersion(v: string): DebianVersion {
  const s = String(v);
  if (!s || !DEBIAN_CHARS.test(s)) throw invalid('Debian', v);
  const colon = s.indexOf(':');
  let epoch = 0;
  let rest = s;
  if (colon !== -1) {
    const e = s.slice(0, colon);
    if (!/^\d{1,9}$/.test(e)) throw invalid('Debian', v);
    epoch = Number(e);
    rest = s.slice(colon + 1);
  }
  const dash = rest.lastIndexOf('-');
  const upstream = dash === -1 ? rest : rest.slice(0, dash);
  const revision = dash === -1 ? '' : rest.slice(dash + 1);
  if (!upstream || (dash !== -1 && !revision)) throw invalid('Debian', v);
  return { epoch, upstream, revision };
}

/** dpkg --compare-versions ordering (apt): -1, 0 or 1. */
export function compareDebian(a: string, b: string): number {
  const x = parseDebianVersion(a);
  const y = parseDebianVersion(b);
  if (x.epoch !== y.epoch) return sign(x.epoch - y.epoch);
  return sign(verrevcmp(x.upstream, y.upstream) || verrevcmp(x.revision, y.revision));
}
