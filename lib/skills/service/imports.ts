/**
 * One import, whatever the source: bring the bytes into private staging, extract
 * safely, validate SKILL.md, verify (ClawHub hash, registry verdict), scan, then install a new
 * immutable version by rename — or fail leaving nothing behind but the job's log.
 */

import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AppDb } from '@/db/client';
import { skillInstalls } from '@/db/schema';
import { AppError } from '@/lib/core/errors';
import { recordAudit } from '../../audit/audit';
import type { Actor } from '../../auth/actor';
import { type BlobStore, DbBlobStore } from '../../cluster/blob-store';
import { newId } from '../../core/ids';
import { getSkillsSettings } from '../../settings/store';
import { copyId } from '../catalog';
import type { SharedSkillStore } from '../shared/shared-store';
import type { ScanResult } from '../types';
import { acknowledgeScan } from './entries';
import { type Fetched, fetchSource } from './import-sources';
import { stageFetched } from './import-stage';
import { managedStore } from './roots';
import type { ImportInput } from './schemas';

export interface ImportContext {
  db: AppDb;
  dataDir: string;
  actor: Actor;
  jobId: string | null;
  signal?: AbortSignal;
  log: (line: string) => void;
  progress: (percent: number, stage: string) => void;
  /** Where uploads' bytes are (default: the database's blob store). */
  blobs?: BlobStore;
  /** The store every replica shares: the new version is recorded there. */
  shared: SharedSkillStore;
}

export interface ImportResult {
  /** The catalog id of the installed skill (its copy in the managed root). */
  id: string;
  slug: string;
  version: string;
  contentHash: string;
  unchanged: boolean;
  previous: string | null;
  verdict: ScanResult['verdict'];
  findings: ScanResult['findings'];
  acknowledged: boolean;
  registry: Fetched['registry'] | null;
}

/**
 * Refuses, before any job is queued, an import into a slug the caller named that is already
 * installed, unless it asks to replace it (an import that takes the slug from the skill's own name
 * finds the same conflict in its job, once the name is known).
 */
export async function assertSlugFree(shared: SharedSkillStore, input: Pick<ImportInput, 'slug' | 'force'>): Promise<void> {
  if (!input.slug || input.force) return;
  const active = await shared.active(input.slug);
  if (active)
    throw new AppError(
      'exists',
      `Skill ${input.slug} is already installed (${active}). Replace it with a new version (“Replace if installed”, or force: true in the API), or choose another slug.`,
      { details: { slug: input.slug, active } },
    );
}

export async function importSkill(ctx: ImportContext, input: ImportInput): Promise<ImportResult> {
  const settings = await getSkillsSettings(ctx.db);
  const store = managedStore(ctx.dataDir);
  await fsp.mkdir(store.stagingDir, { recursive: true, mode: 0o700 });
  const work = await fsp.mkdtemp(path.join(store.stagingDir, '.tmp-import-'));
  try {
    ctx.progress(5, 'fetching');
    const fetched = await fetchSource(input.source, {
      work,
      settings,
      uploads: { db: ctx.db, blobs: ctx.blobs ?? new DbBlobStore(ctx.db), dir: store.uploadsDir },
      signal: ctx.signal,
      log: ctx.log,
    });
    const staged = await stageFetched(fetched, { work, settings, slug: input.slug, signal: ctx.signal, log: ctx.log, progress: ctx.progress });
    const { slug, scan, root } = staged;
    const critical = scan.findings.filter((f) => f.severity === 'critical');
    const blocked = scan.verdict === 'critical' || scan.verdict === 'error';
    if (blocked && !input.acknowledge) {
      throw new AppError(
        'scan_blocked',
        `The scanner found ${critical.length || 'blocking'} critical issue(s)${scan.error ? ` (${scan.error})` : ''}. An admin can import it anyway by acknowledging the findings with a reason.`,
        {
          details: { jobResult: { slug, verdict: scan.verdict, findings: scan.findings, contentHash: staged.contentHash, blocked: true } },
        },
      );
    }
    ctx.progress(80, 'installing');
    const installed = await ctx.shared.install({
      slug,
      stagedDir: root,
      force: input.force,
      lock: {
        version: fetched.registry?.version ?? '',
        ownerHandle: fetched.registry?.ownerHandle,
        sourceRef: fetched.sourceRef,
        registry: fetched.registry?.baseUrl,
      },
    });
    const version = installed.version;
    if (blocked && input.acknowledge)
      await acknowledgeScan(ctx.db, ctx.actor, {
        contentHash: installed.contentHash,
        reason: input.acknowledge.reason,
        skill: slug,
        findings: critical.length,
      });
    const registry = fetched.registry ? { ...fetched.registry, expectHashCheck: undefined } : null;
    await ctx.db.transaction(async (tx) => {
      if (!installed.unchanged) {
        await tx.insert(skillInstalls).values({
          id: newId(),
          slug,
          version,
          contentHash: installed.contentHash,
          source: fetched.describe,
          verdict: scan.verdict,
          findings: scan.findings,
          registryVerdict: registry?.verdict ?? null,
          installedBy: ctx.actor.label,
          jobId: ctx.jobId,
        });
      }
      await recordAudit(tx, ctx.actor, {
        action: 'skill.import',
        targetType: 'skill',
        targetId: slug,
        after: {
          version,
          contentDigest: installed.contentHash,
          source: fetched.describe,
          verdict: scan.verdict,
          unchanged: !!installed.unchanged,
          acknowledged: blocked,
        },
      });
    });
    // Sandbox installs of another content become updatable to this version.
    await ctx.shared.uses.activated(slug, installed.contentHash);
    ctx.progress(100, installed.unchanged ? 'unchanged' : 'installed');
    ctx.log(
      installed.unchanged
        ? `${slug} is already at this content (${version}); nothing changed`
        : `installed ${slug} ${version}${installed.previous ? ` (was ${installed.previous})` : ''}`,
    );
    return {
      id: copyId('managed', store.managedRoot, slug),
      slug,
      version,
      contentHash: installed.contentHash,
      unchanged: !!installed.unchanged,
      previous: installed.previous ?? null,
      verdict: scan.verdict,
      findings: scan.findings,
      acknowledged: blocked,
      registry,
    };
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}
