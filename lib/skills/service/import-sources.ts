/** Brings an import's bytes into private staging: an uploaded archive, a git checkout, a URL download, or a ClawHub release. */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '@/lib/core/errors';
import { trimEndChar } from '@/lib/core/text';
import type { SkillsSettings } from '../../settings/skills-settings';
import { createClawhubClient, type FetchedFile, fetchGitSkill, fetchToFile, formatSkillRef, isBlockedVerdict, parseSkillRef, validateOwner } from '../remote';
import { stageSkillFile } from '../store';
import type { ImportSource } from './schemas';
import { assertUploadsAllowed, type UploadDeps, uploadFile } from './uploads';

export interface Fetched {
  /** An archive to extract… */
  archive?: string;
  /** …or a folder that already is the skill. */
  dir?: string;
  suggestedSlug?: string;
  sourceRef: string;
  /** What the install record and the audit keep about the source (no secrets). */
  describe: Record<string, unknown>;
  registry?: {
    baseUrl: string;
    slug: string;
    version: string;
    ownerHandle?: string;
    verdict: Record<string, unknown> | null;
    /** Checks the extracted content against the registry's hash for this version. */
    expectHashCheck?: (hash: string) => Promise<void>;
  };
}

interface FetchOptions {
  work: string;
  settings: SkillsSettings;
  uploads: UploadDeps;
  signal?: AbortSignal;
  log: (line: string) => void;
}

const MIB = 1024 * 1024;

export function urlPolicy(settings: SkillsSettings) {
  return { allowedHosts: settings.urlPrivateHosts, hostAllowlist: settings.urlHostAllowlist, maxBytes: settings.uploadMaxMb * MIB };
}

async function looksLikeSkillMd(file: string): Promise<string | null> {
  const st = await fsp.stat(file);
  if (st.size > 1_000_000) return null;
  const text = await fsp.readFile(file, 'utf8');
  return /^\uFEFF?---[ \t]*\r?\n/.test(text) ? text : null;
}

/** A downloaded URL body as an import source: a bare SKILL.md becomes a one-file skill folder, anything else an archive. */
export async function fetchedUrlFile(file: string, work: string, url: string, got: FetchedFile): Promise<Fetched> {
  const md = await looksLikeSkillMd(file);
  const describe = {
    kind: 'url',
    url,
    finalUrl: got.finalUrl,
    sha256: got.sha256,
    ...(got.etag ? { etag: got.etag } : {}),
    ...(got.lastModified ? { lastModified: got.lastModified } : {}),
  };
  if (md !== null) {
    const { root } = await stageSkillFile(md, path.join(work, 'md'));
    return { dir: root, sourceRef: url, describe };
  }
  return { archive: file, sourceRef: url, describe };
}

export async function fetchSource(source: ImportSource, o: FetchOptions): Promise<Fetched> {
  switch (source.kind) {
    case 'upload': {
      assertUploadsAllowed(o.settings);
      const { file, record } = await uploadFile(o.uploads, source.uploadId);
      o.log(`upload ${source.uploadId}: ${record.size} bytes, sha256 ${record.sha256}`);
      return {
        archive: file,
        sourceRef: `upload:${record.filename ?? source.uploadId}`,
        describe: { kind: 'upload', filename: record.filename, sha256: record.sha256, size: record.size },
      };
    }
    case 'url': {
      const file = path.join(o.work, 'download');
      const got = await fetchToFile(source.url, file, urlPolicy(o.settings), o.signal);
      o.log(`downloaded ${got.bytes} bytes from ${got.finalUrl} (sha256 ${got.sha256})`);
      return fetchedUrlFile(file, o.work, source.url, got);
    }
    case 'git': {
      const out = await fetchGitSkill(
        { url: source.url, ref: source.ref, subdir: source.subdir },
        path.join(o.work, 'git'),
        { allowLocal: o.settings.gitAllowLocal, ssrf: urlPolicy(o.settings) },
        o.signal,
      );
      o.log(`checked out ${source.url}${source.ref ? `@${source.ref}` : ''} at ${out.commit}`);
      const sub = source.subdir ? trimEndChar(source.subdir, '/').split('/').pop() : undefined;
      return {
        dir: out.dir,
        suggestedSlug: sub,
        sourceRef: `git:${source.url}@${out.commit}`,
        describe: { kind: 'git', url: source.url, ref: source.ref ?? null, subdir: source.subdir ?? null, commit: out.commit },
      };
    }
    case 'clawhub': {
      const baseUrl = o.settings.clawhubBaseUrl;
      const client = createClawhubClient({ baseUrl });
      const parsed = parseSkillRef(source.ref);
      const ref = formatSkillRef({ ...parsed, ...(source.ownerHandle && !parsed.ownerHandle ? { ownerHandle: validateOwner(source.ownerHandle) } : {}) });
      const plan = await client.resolveInstall(ref, o.signal);
      if (plan.installKind !== 'archive' || !plan.version) {
        throw new AppError('unsupported_format', `ClawHub hands ${ref} off to GitHub instead of serving an archive; import it from git instead.`, {
          details: plan.installKind === 'github' ? { github: plan.github } : {},
        });
      }
      const resolved = { slug: plan.slug, version: plan.version, ownerHandle: plan.ownerHandle };
      o.log(`ClawHub: ${resolved.ownerHandle ? `@${resolved.ownerHandle}/` : ''}${resolved.slug}@${resolved.version}`);
      const verdict = await client.verify(resolved.slug, resolved.version, resolved.ownerHandle, o.signal);
      if (isBlockedVerdict(verdict)) {
        throw new AppError(
          'registry_blocked',
          `ClawHub flags ${resolved.slug}@${resolved.version} as malicious (${(verdict.reasonCodes ?? []).join(', ') || 'no reason given'}); it cannot be imported.`,
          { details: { verdict } },
        );
      }
      const file = path.join(o.work, 'clawhub.zip');
      await client.download(resolved.slug, resolved.version, file, o.settings.uploadMaxMb * MIB, resolved.ownerHandle, o.signal);
      return {
        archive: file,
        suggestedSlug: resolved.slug,
        sourceRef: `clawhub:${resolved.ownerHandle ? `@${resolved.ownerHandle}/` : ''}${resolved.slug}@${resolved.version}`,
        describe: { kind: 'clawhub', registry: baseUrl, slug: resolved.slug, ownerHandle: resolved.ownerHandle ?? null, version: resolved.version },
        registry: {
          baseUrl,
          slug: resolved.slug,
          version: resolved.version,
          ownerHandle: resolved.ownerHandle,
          verdict: verdict as unknown as Record<string, unknown>,
          expectHashCheck: async (hash) => {
            const r = await client.resolveHash(resolved.slug, hash, o.signal, resolved.ownerHandle);
            if (r.match?.version !== resolved.version) {
              throw new AppError(
                'hash_mismatch',
                `The downloaded files of ${resolved.slug}@${resolved.version} do not match the registry's content hash (${r.match ? `they match ${r.match.version}` : 'no version matches'}).`,
                { details: { hash } },
              );
            }
          },
        },
      };
    }
  }
}
