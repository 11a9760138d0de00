/**
 * `storeDir/<slug>/versions.json`: the record of every stored version (content hash and the
 * hash of each file at install time). It is what drift detection compares the disk against,
 * and what rollback rewrites the lock entry from.
 */
import path from 'node:path';
import { AppError } from '@/lib/core/errors';
import { readJsonFile, writeJsonAtomic } from '../../core/atomic-fs';

export interface RecordedFile {
  path: string;
  sha256: string;
  size: number;
}

/** What lock.json says for this version when it is the active one. */
export interface VersionLockInfo {
  /** Registry version, or our own vN for local sources. */
  version: string;
  ownerHandle?: string;
  sourceRef?: string;
  canonicalRef?: string;
  registry?: string;
}

export interface VersionRecord {
  version: string;
  contentHash: string;
  /** Epoch milliseconds. */
  installedAt: number;
  files: RecordedFile[];
  lock: VersionLockInfo;
}

export interface VersionsManifest {
  version: 1;
  slug: string;
  versions: VersionRecord[];
}

export const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
export const VERSION_RE = /^v[1-9][0-9]{0,8}$/;
export const MANIFEST_NAME = 'versions.json';

export function validateSlug(slug: string): string {
  if (typeof slug !== 'string' || slug.length > 64 || !SLUG_RE.test(slug)) {
    throw new AppError(
      'invalid_slug',
      `${JSON.stringify(slug)} is not a valid skill slug: use lowercase letters, digits and inner hyphens, at most 64 characters.`,
      {
        details: { slug },
      },
    );
  }
  return slug;
}

export function validateVersion(version: string): string {
  if (typeof version !== 'string' || !VERSION_RE.test(version)) {
    throw new AppError('validation', `${JSON.stringify(version)} is not a stored version (expected v1, v2, …).`, { details: { version } });
  }
  return version;
}

export const slugStoreDir = (storeDir: string, slug: string) => path.join(storeDir, slug);
export const versionDir = (storeDir: string, slug: string, version: string) => path.join(storeDir, slug, version);
export const versionNumber = (version: string) => Number(version.slice(1));

export async function readManifest(storeDir: string, slug: string): Promise<VersionsManifest> {
  const file = path.join(slugStoreDir(storeDir, slug), MANIFEST_NAME);
  let raw: unknown;
  try {
    raw = await readJsonFile(file);
  } catch (e) {
    const what = e instanceof SyntaxError ? 'is not valid JSON' : 'cannot be read';
    throw new AppError('internal', `${file} ${what}: ${(e as Error).message}`, { cause: e });
  }
  if (raw === null) return { version: 1, slug, versions: [] };
  const m = raw as Partial<VersionsManifest>;
  if (!Array.isArray(m.versions)) throw new AppError('internal', `${file} is not a versions manifest.`);
  return { version: 1, slug, versions: m.versions };
}

export async function writeManifest(storeDir: string, manifest: VersionsManifest): Promise<void> {
  await writeJsonAtomic(path.join(slugStoreDir(storeDir, manifest.slug), MANIFEST_NAME), manifest);
}

export function findVersion(manifest: VersionsManifest, version: string): VersionRecord | undefined {
  return manifest.versions.find((v) => v.version === version);
}

/** The next vN: one past the highest number ever recorded or present on disk. */
export function nextVersion(manifest: VersionsManifest, onDisk: string[]): string {
  const nums = [...manifest.versions.map((v) => v.version), ...onDisk].filter((v) => VERSION_RE.test(v)).map(versionNumber);
  return `v${Math.max(0, ...nums) + 1}`;
}
