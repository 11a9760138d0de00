// Collects a sandbox's /workspace/output into its artifact store just before Skilldock recycles or
// removes it. The bytes come out through the backend's archive API (Docker) or its file API (E2B,
// Cube), never by running anything inside; the entry policy and caps of intake.ts decide what is
// kept. A collection never throws: a failure is logged and recorded, and the removal goes on.
import type { AppDb } from '@/db/client';
import { recordAudit } from '../../audit/audit';
import { type Actor, systemActor } from '../../auth/actor';
import { type BlobStore, DbBlobStore } from '../../cluster/blob-store';
import { describeError, logger } from '../../core/logger';
import type { SandboxBackend, SandboxInfo } from '../backend';
import type { ConfigRow } from '../config/view';
import { PRINCIPAL_LABEL } from '../instances/principal';
import { account, admit, type Intake, intakeNote, newIntake, skip } from './intake';
import { type ArtifactLimits, artifactLimits, OUTPUT_DIR } from './limits';
import { type CollectionRow, closeCollection, openCollection, recordFile, type Trigger } from './records';
import { type SourceEntry, tarEntries, walkEntries } from './source';

export interface CollectDeps {
  db: AppDb;
  blobs?: BlobStore;
  artifactLimits?: Partial<ArtifactLimits>;
}

export interface CollectTarget {
  row: Pick<ConfigRow, 'id' | 'name' | 'backend'>;
  backend: SandboxBackend;
  sandbox: SandboxInfo;
}

export interface CollectContext {
  trigger: Trigger;
  /** Who caused the removal (the record and the audit say so; the write itself is the system's). */
  actor: Actor;
  /** The instance that replaces the sandbox, for a recycle. */
  replacedBy?: string;
}

async function* capped(body: AsyncIterable<Uint8Array>, max: number): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const c of body) {
    seen += c.byteLength;
    if (seen > max) throw new Error(`a file grew past its declared ${max} bytes while it was read`);
    yield c;
  }
}

function sourceOf(t: CollectTarget, limits: ArtifactLimits, signal: AbortSignal): (() => Promise<AsyncIterable<SourceEntry> | null>) | null {
  const { backend, sandbox } = t;
  if (typeof backend.readArchive === 'function')
    return async () => {
      const a = await backend.readArchive?.(sandbox.id, OUTPUT_DIR, signal);
      return a ? tarEntries(a.stream, a.root, signal) : null;
    };
  if (typeof backend.listFiles === 'function' && typeof backend.readFile === 'function')
    return async () => walkEntries(backend, sandbox.id, OUTPUT_DIR, limits.maxDepth, signal);
  return null;
}

async function take(deps: CollectDeps, blobs: BlobStore, row: CollectionRow, intake: Intake, entries: AsyncIterable<SourceEntry>): Promise<void> {
  for await (const e of entries) {
    if (!account(intake, e.size)) break;
    if (e.kind === 'dir') continue;
    if (e.kind !== 'file') {
      skip(intake, e.kind === 'symlink' ? 'symlink' : e.kind === 'hardlink' ? 'hardlink' : e.kind === 'device' ? 'device' : 'other');
      continue;
    }
    if (!e.rel || !e.body) {
      skip(intake, 'bad_name');
      continue;
    }
    if (admit(intake, e.rel, e.size)) continue;
    const ref = await blobs.put(capped(await e.body(), e.size), { maxBytes: e.size });
    // A file that came out shorter than declared is kept as it came; the totals follow the bytes.
    intake.bytes += ref.size - e.size;
    if (!(await recordFile(deps.db, row.id, { rel: e.rel, size: ref.size, sha256: ref.sha256, mode: e.mode, mtime: e.mtime })))
      throw new Error(`the stored bytes of ${e.rel} were removed while they were being recorded`);
  }
}

export interface CollectionSummary {
  id: string | null;
  status: CollectionRow['status'];
  fileCount: number;
  totalBytes: number;
  note: string | null;
}

/** Collects the output folder of `t.sandbox`; answers what was recorded. Never throws. */
export async function collectOutput(deps: CollectDeps, t: CollectTarget, ctx: CollectContext): Promise<CollectionSummary> {
  const limits = artifactLimits(deps.artifactLimits);
  const instanceId = `${t.row.id}~${t.sandbox.id}`;
  let row: CollectionRow;
  try {
    row = await openCollection(deps.db, {
      configId: t.row.id,
      configName: t.row.name,
      backend: t.row.backend,
      instanceId,
      sandboxId: t.sandbox.id,
      principal: t.sandbox.labels[PRINCIPAL_LABEL] ?? null,
      replacedBy: ctx.replacedBy ?? null,
      trigger: ctx.trigger,
      createdBy: ctx.actor.label.slice(0, 200),
    });
  } catch (e) {
    logger.warn('artifact collection could not be recorded; the sandbox is removed without it', { sandbox: instanceId, err: describeError(e) });
    return { id: null, status: 'failed', fileCount: 0, totalBytes: 0, note: (e as Error).message };
  }
  const intake = newIntake(limits);
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let status: CollectionRow['status'];
  let note: string | null = null;
  try {
    const open = sourceOf(t, limits, signal);
    const entries = open ? await open() : null;
    if (!open) {
      status = 'not_supported';
      note = `The ${t.row.backend} backend offers no way to read files out of a sandbox, so its output was not collected.`;
    } else if (!entries) {
      status = 'empty';
      note = `${OUTPUT_DIR} did not exist.`;
    } else {
      await take(deps, deps.blobs ?? new DbBlobStore(deps.db), row, intake, entries);
      note = intakeNote(intake);
      status = note ? 'partial' : intake.files ? 'collected' : 'empty';
    }
  } catch (e) {
    status = 'failed';
    const kept = intake.files ? ` after ${intake.files} file(s) were kept` : '';
    note = `Collection failed${kept}: ${(e as Error).message}`.slice(0, 2000);
    const more = intakeNote(intake);
    if (more) note = `${note} ${more}`;
    logger.warn('artifact collection failed; the sandbox is removed anyway', { sandbox: instanceId, trigger: ctx.trigger, err: describeError(e) });
  }
  const summary = { id: row.id, status, fileCount: intake.files, totalBytes: intake.bytes, note };
  try {
    await closeCollection(deps.db, row.id, {
      status,
      note,
      skipped: intake.skipped as Record<string, number>,
      fileCount: intake.files,
      totalBytes: intake.bytes,
    });
    await recordAudit(deps.db, systemActor, {
      action: 'sandbox.artifacts.collect',
      targetType: 'sandbox',
      targetId: instanceId,
      after: { collectionId: row.id, trigger: ctx.trigger, status, files: intake.files, bytes: intake.bytes, causedBy: ctx.actor.label.slice(0, 200) },
    });
  } catch (e) {
    logger.warn('artifact collection could not be closed', { sandbox: instanceId, err: describeError(e) });
  }
  return summary;
}
