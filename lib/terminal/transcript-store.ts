// The recorded transcripts on disk: the admin list, a download, a delete, and the retention sweep.
// Ids reach here already parsed as UUIDs; the pattern is checked again before any path is built.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { AppDb } from '@/db/client';
import { recordAudit } from '../audit/audit';
import { type Actor, systemActor } from '../auth/actor';
import { isTempName } from '../core/atomic-fs';
import { AppError } from '../core/errors';
import { logger } from '../core/logger';
import { getTerminalSettings } from '../settings';
import { castPath, metaPath, type TranscriptMeta } from './transcript';

const ID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;

export interface TranscriptView extends TranscriptMeta {
  bytes: number;
}

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException)?.code === 'ENOENT';

function checkedId(id: string): string {
  if (!ID_RE.test(id)) throw new AppError('validation', 'Not a terminal session id.', { issues: [{ path: 'id', message: 'Not a terminal session id.' }] });
  return id.toLowerCase();
}

const notFound = () => new AppError('not_found', 'No transcript has this id (it may have been deleted or expired).');

async function readMeta(dir: string, id: string): Promise<Partial<TranscriptMeta>> {
  try {
    const v = JSON.parse(await fsp.readFile(metaPath(dir, id), 'utf8')) as unknown;
    return v && typeof v === 'object' ? (v as Partial<TranscriptMeta>) : {};
  } catch {
    return {};
  }
}

async function viewOf(dir: string, id: string, stat: fs.Stats): Promise<TranscriptView> {
  const m = await readMeta(dir, id);
  const str = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
  return {
    id,
    // A transcript whose sidecar was lost (a crash before it was written) is still listed.
    user: str(m.user, 'unknown'),
    userId: str(m.userId, ''),
    sandboxId: str(m.sandboxId, ''),
    startedAt: str(m.startedAt, stat.birthtime.toISOString()),
    endedAt: typeof m.endedAt === 'string' ? m.endedAt : null,
    reason: typeof m.reason === 'string' ? m.reason : null,
    truncated: m.truncated === true,
    bytes: stat.size,
  };
}

/** Every transcript in the folder, newest first (an absent folder: none yet). */
export async function listTranscripts(dir: string): Promise<TranscriptView[]> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (e) {
    if (isMissing(e)) return [];
    throw e;
  }
  const views: TranscriptView[] = [];
  for (const name of names) {
    const id = name.endsWith('.cast') ? name.slice(0, -5) : '';
    if (!ID_RE.test(id)) continue;
    const stat = await fsp.lstat(castPath(dir, id)).catch(() => null);
    if (stat?.isFile()) views.push(await viewOf(dir, id, stat));
  }
  return views.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
}

/** One transcript as a stream of its current bytes (a session still recording keeps growing past them). */
export async function openTranscript(dir: string, rawId: string): Promise<{ view: TranscriptView; stream: fs.ReadStream }> {
  const id = checkedId(rawId);
  let fh: fsp.FileHandle;
  try {
    fh = await fsp.open(castPath(dir, id), fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    if (isMissing(e) || (e as NodeJS.ErrnoException).code === 'ELOOP') throw notFound();
    throw e;
  }
  const stat = await fh.stat();
  if (!stat.isFile()) {
    await fh.close();
    throw notFound();
  }
  const view = await viewOf(dir, id, stat);
  return { view, stream: fh.createReadStream({ start: 0, end: Math.max(0, stat.size - 1), autoClose: true }) };
}

/**
 * Deletes one transcript and its sidecar, audited. A session still open is refused: its recorder
 * would keep writing into the removed file and leave a sidecar behind.
 */
export async function deleteTranscript(db: AppDb, dir: string, actor: Actor, rawId: string, isOpen: (id: string) => boolean): Promise<{ deleted: true }> {
  const id = checkedId(rawId);
  const stat = await fsp.lstat(castPath(dir, id)).catch((e) => {
    if (isMissing(e)) throw notFound();
    throw e;
  });
  if (!stat.isFile()) throw notFound();
  if (isOpen(id)) throw new AppError('invalid_state', 'This terminal session is still open; close it first, then delete its transcript.');
  const view = await viewOf(dir, id, stat);
  await fsp.rm(castPath(dir, id), { force: true });
  await fsp.rm(metaPath(dir, id), { force: true });
  await recordAudit(db, actor, {
    action: 'sandbox.terminal.transcript.delete',
    targetType: 'sandbox',
    targetId: view.sandboxId || null,
    before: { sessionId: id, user: view.user, startedAt: view.startedAt, endedAt: view.endedAt, bytes: view.bytes },
  });
  return { deleted: true };
}

/**
 * Removes transcripts last written before `days` ago (by the .cast file's mtime, so a session still
 * writing is never old), sidecars left without a transcript, and temp files of an interrupted write.
 * Returns the number of transcripts removed.
 */
export async function sweepTranscripts(dir: string, days: number, opts: { now?: number; isOpen?: (id: string) => boolean } = {}): Promise<number> {
  const cutoff = (opts.now ?? Date.now()) - days * DAY_MS;
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (e) {
    if (isMissing(e)) return 0;
    throw e;
  }
  const present = new Set(names);
  const old = async (name: string) => {
    const stat = await fsp.lstat(`${dir}/${name}`).catch(() => null);
    return stat !== null && stat.mtimeMs < cutoff;
  };
  let removed = 0;
  for (const name of names) {
    const cast = name.endsWith('.cast') ? name.slice(0, -5) : '';
    const meta = name.endsWith('.json') ? name.slice(0, -5) : '';
    if (ID_RE.test(cast)) {
      if (opts.isOpen?.(cast) || !(await old(name))) continue;
      await fsp.rm(castPath(dir, cast), { force: true });
      await fsp.rm(metaPath(dir, cast), { force: true });
      removed++;
    } else if (ID_RE.test(meta) && !present.has(`${meta}.cast`) && !opts.isOpen?.(meta)) {
      if (await old(name)) await fsp.rm(metaPath(dir, meta), { force: true });
    } else if (isTempName(name) && (await old(name))) {
      await fsp.rm(`${dir}/${name}`, { force: true });
    }
  }
  return removed;
}

export interface TranscriptSweeperDeps {
  db: AppDb;
  dir: string;
  /** Sessions still open in this process (their transcripts are kept whatever their age). */
  isOpen: (id: string) => boolean;
  now?: () => number;
}

/**
 * Sweeps now and then every hour, with the retention days read from the terminal settings at each
 * pass; runs in every process that serves terminals, since each records into its own data dir.
 */
export function startTranscriptSweeper(deps: TranscriptSweeperDeps, everyMs = 3_600_000): () => void {
  let running = false;
  const sweep = async () => {
    if (running) return;
    running = true;
    try {
      const { transcriptRetentionDays: days } = await getTerminalSettings(deps.db);
      const removed = await sweepTranscripts(deps.dir, days, { now: (deps.now ?? Date.now)(), isOpen: deps.isOpen });
      if (removed > 0) {
        logger.info('terminal transcript sweep', { removed, days });
        await recordAudit(deps.db, systemActor, { action: 'retention.sweep', targetType: 'system', after: { transcripts: removed, transcriptDays: days } });
      }
    } catch (e) {
      logger.warn('terminal transcript sweep failed', { error: String(e) });
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void sweep(), everyMs);
  timer.unref();
  void sweep();
  return () => clearInterval(timer);
}
