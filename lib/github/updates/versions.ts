import semver from 'semver';

/**
 * Release ordering for GitHub tags.
 * Tags are compared by semver after normalisation; when either side is not semver, by `publishedAt`.
 * Tags are never compared as strings. A tag missing its patch (`1.2`) is NOT semver: it is ordered
 * by date like any other non-semver tag (we do not invent a `.0`).
 */

export interface ReleaseLike {
  tag: string;
  /** ISO date (GitHub `published_at`); null for drafts. */
  publishedAt?: string | Date | null;
  prerelease?: boolean;
  draft?: boolean;
}

export interface TagOptions {
  /** A configured tag prefix such as `cli-v` or `cli-`; stripped before the leading `v`. */
  tagPrefix?: string;
}

export type Channel = 'stable' | 'prerelease';

export interface PickLatestOptions extends TagOptions {
  channel: Channel;
  /** Take only releases published at least this many days before `now`. */
  minAgeDays?: number;
  now?: Date;
}

const DAY_MS = 86_400_000;
const PRERELEASE_WORD = /(?:^|[-_.+])(alpha|beta|rc|pre|preview|dev|nightly|snapshot|canary)(?=$|[-_.+\d])/i;

/** `v1.2.3` → `1.2.3`; with prefix `cli-v`, `cli-v2.1.0` → `2.1.0`. A tag without the prefix is only `v`-stripped. */
export function normalizeTag(tag: string, prefix?: string): string {
  let s = tag.trim();
  if (prefix && s.startsWith(prefix)) s = s.slice(prefix.length);
  return s.replace(/^[vV](?=\d)/, '');
}

/** The strict semver of a tag after normalisation, or null (`1.2`, `nightly`, `2024-01-05` are not semver). */
export function semverOf(tag: string, prefix?: string): string | null {
  return semver.valid(normalizeTag(tag, prefix));
}

/** A semver pre-release part, or (for non-semver tags) an alpha/beta/rc/pre/preview/dev/nightly/snapshot/canary word. */
export function isPrereleaseTag(tag: string, prefix?: string): boolean {
  const v = semverOf(tag, prefix);
  if (v) return semver.prerelease(v) !== null;
  return PRERELEASE_WORD.test(normalizeTag(tag, prefix));
}

/** GitHub's flag or the tag says pre-release (aqua `convRelease`). */
export function isPrerelease(r: ReleaseLike, prefix?: string): boolean {
  return r.prerelease === true || isPrereleaseTag(r.tag, prefix);
}

function publishedMs(r: ReleaseLike): number {
  if (r.publishedAt === null || r.publishedAt === undefined) return Number.NaN;
  return r.publishedAt instanceof Date ? r.publishedAt.getTime() : Date.parse(r.publishedAt);
}

/** By date; 0 when either date is unknown. */
function comparePublished(a: ReleaseLike, b: ReleaseLike): number {
  const d = publishedMs(a) - publishedMs(b);
  return Number.isNaN(d) ? 0 : Math.sign(d);
}

/**
 * -1, 0 or 1. Both semver: semver order (build metadata ignored). Otherwise `publishedAt` (0 when a date is
 * missing). Not a total order over mixed lists — `pickLatest` does not sort with it.
 */
export function compareReleases(a: ReleaseLike, b: ReleaseLike, opts: TagOptions = {}): number {
  const va = semverOf(a.tag, opts.tagPrefix);
  const vb = semverOf(b.tag, opts.tagPrefix);
  if (va && vb) return semver.compare(va, vb);
  return comparePublished(a, b);
}

/**
 * The release to install or offer on `channel`: drafts dropped; on `stable`, pre-releases dropped
 * (flag or tag); with a `tagPrefix`, tags without it dropped (other components of a monorepo); with
 * `minAgeDays`, releases younger than that or without a date dropped. Highest semver wins; a non-semver
 * release wins only when it was published strictly after that best semver release. Ties keep list order.
 */
export function pickLatest<R extends ReleaseLike>(releases: readonly R[], opts: PickLatestOptions): R | undefined {
  const now = (opts.now ?? new Date()).getTime();
  const prefix = opts.tagPrefix;
  const eligible = releases.filter((r) => {
    if (r.draft) return false;
    if (opts.channel === 'stable' && isPrerelease(r, prefix)) return false;
    if (prefix && !r.tag.trim().startsWith(prefix)) return false;
    if (opts.minAgeDays !== undefined && opts.minAgeDays > 0) {
      const t = publishedMs(r);
      if (Number.isNaN(t) || t > now - opts.minAgeDays * DAY_MS) return false;
    }
    return true;
  });
  let bestSemver: { r: R; v: string } | undefined;
  let bestOther: R | undefined;
  for (const r of eligible) {
    const v = semverOf(r.tag, prefix);
    if (v) {
      if (!bestSemver || semver.gt(v, bestSemver.v)) bestSemver = { r, v };
    } else if (!bestOther || publishedMs(r) > publishedMs(bestOther) || (Number.isNaN(publishedMs(bestOther)) && !Number.isNaN(publishedMs(r)))) {
      bestOther = r;
    }
  }
  if (!bestSemver) return bestOther;
  if (!bestOther) return bestSemver.r;
  return comparePublished(bestOther, bestSemver.r) > 0 ? bestOther : bestSemver.r;
}

/**
 * Whether `candidate` is an update for `installed`: semver greater when both are semver (never a
 * downgrade); otherwise only when both dates are known and the candidate was published strictly later
 * (so a moving tag such as `nightly`, republished, is an update).
 */
export function isNewer(installed: ReleaseLike, candidate: ReleaseLike, opts: TagOptions = {}): boolean {
  const vi = semverOf(installed.tag, opts.tagPrefix);
  const vc = semverOf(candidate.tag, opts.tagPrefix);
  if (vi && vc) return semver.gt(vc, vi);
  return comparePublished(candidate, installed) > 0;
}
