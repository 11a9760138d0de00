/**
 * ClawHub skill references: `slug`, `slug@version`, `@owner/slug`, `@owner/slug@version`.
 * Everything is validated before it reaches a URL (slugs are lower-cased, as the registry does).
 */
import { AppError } from '@/lib/core/errors';

/** Case-insensitive; stored lower-case. */
export const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/;
export const OWNER_RE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,38}$/;
/** Semver-ish: 1.2.3, v1.2.3, 1.2.3-beta.1+build. */
export const VERSION_RE = /^v?\d{1,9}\.\d{1,9}\.\d{1,9}(?:-[0-9A-Za-z.-]{1,64})?(?:\+[0-9A-Za-z.-]{1,64})?$/;
export const HASH_RE = /^[a-f0-9]{64}$/;

export interface SkillRef {
  slug: string;
  ownerHandle?: string;
  version?: string;
}

const invalid = (message: string, field: string) => new AppError('validation', message, { details: { field } });

export function validateSlug(slug: string): string {
  const s = String(slug ?? '')
    .trim()
    .toLowerCase();
  if (!SLUG_RE.test(s)) throw new AppError('invalid_slug', `"${String(slug).slice(0, 120)}" is not a valid skill slug.`, { details: { field: 'slug' } });
  return s;
}

export function validateOwner(owner: string): string {
  const o = String(owner ?? '')
    .trim()
    .replace(/^@/, '');
  if (!OWNER_RE.test(o)) throw invalid(`"${String(owner).slice(0, 60)}" is not a valid owner handle.`, 'ownerHandle');
  return o;
}

export function validateVersion(version: string): string {
  const v = String(version ?? '').trim();
  if (!VERSION_RE.test(v)) throw invalid(`"${v.slice(0, 80)}" is not a valid version (expected e.g. 1.2.3).`, 'version');
  return v;
}

export function validateHash(hash: string): string {
  const h = String(hash ?? '')
    .trim()
    .toLowerCase();
  if (!HASH_RE.test(h)) throw invalid('The content hash must be 64 hex characters (sha256).', 'hash');
  return h;
}

/** Parses `slug`, `slug@version`, `@owner/slug` or `@owner/slug@version`. */
export function parseSkillRef(ref: string): SkillRef {
  let rest = String(ref ?? '').trim();
  if (!rest) throw invalid('The skill reference is empty.', 'ref');
  let ownerHandle: string | undefined;
  if (rest.startsWith('@')) {
    const slash = rest.indexOf('/');
    if (slash < 0) throw invalid(`"${rest.slice(0, 120)}" must look like @owner/slug.`, 'ref');
    ownerHandle = validateOwner(rest.slice(1, slash));
    rest = rest.slice(slash + 1);
  }
  let version: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    version = validateVersion(rest.slice(at + 1));
    rest = rest.slice(0, at);
  }
  return { slug: validateSlug(rest), ...(ownerHandle ? { ownerHandle } : {}), ...(version ? { version } : {}) };
}

/** The canonical text form of a reference. */
export function formatSkillRef(ref: SkillRef): string {
  return `${ref.ownerHandle ? `@${ref.ownerHandle}/` : ''}${ref.slug}${ref.version ? `@${ref.version}` : ''}`;
}
