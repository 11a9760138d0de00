// The recorder of each new terminal session, within the space all transcripts may take together:
// before a new session records, the oldest ended transcripts are deleted until it has the room it
// may use.
import fsp from 'node:fs/promises';
import { AppError } from '../core/errors';
import type { TerminalSettings } from '../settings';
import {
  castPath,
  DEFAULT_TRANSCRIPT_CAP,
  ensureTranscriptsDir,
  metaPath,
  type RecorderOptions,
  TranscriptRecorder,
  type TranscriptStart,
  transcriptsDir,
} from './transcript';
import { listTranscripts } from './transcript-store';

/** Less room than this for a new transcript refuses the terminal instead of recording next to nothing. */
export const MIN_TRANSCRIPT_ROOM = 64 * 1024;

/** Deletes the oldest ended transcripts until `need` more bytes fit under `quota`; answers the room left. */
export async function makeRoom(dir: string, quota: number, need: number): Promise<number> {
  const all = await listTranscripts(dir);
  let used = all.reduce((n, t) => n + t.bytes, 0);
  // Oldest first; a transcript with no end may still be written (or was cut short by a crash: the retention sweep takes it).
  for (const t of [...all].reverse()) {
    if (used + need <= quota) break;
    if (t.endedAt === null) continue;
    await fsp.rm(castPath(dir, t.id), { force: true });
    await fsp.rm(metaPath(dir, t.id), { force: true });
    used -= t.bytes;
  }
  return Math.max(0, quota - used);
}

/**
 * The TerminalService's `transcript` dependency: a recorder per new session while the settings say
 * recordTranscripts, else null. Each gets the room left under the quota (the oldest ended
 * transcripts are deleted first) less what open sessions may still write. A folder that cannot be
 * created, or no room, refuses the terminal, so no session goes unrecorded while recording is on.
 */
export function transcriptRecorder(dataDir: string, opts: RecorderOptions = {}) {
  const dir = transcriptsDir(dataDir);
  let reserved = 0;
  return async (s: TranscriptStart, settings: Pick<TerminalSettings, 'recordTranscripts' | 'transcriptQuotaMb'>): Promise<TranscriptRecorder | null> => {
    if (!settings.recordTranscripts) return null;
    ensureTranscriptsDir(dir);
    const want = opts.cap ?? DEFAULT_TRANSCRIPT_CAP;
    const room = await makeRoom(dir, settings.transcriptQuotaMb * 1024 * 1024, want + reserved);
    const cap = Math.min(want, room - reserved);
    if (cap < Math.min(want, MIN_TRANSCRIPT_ROOM))
      throw new AppError('invalid_state', 'Terminal transcripts have used their space, and every transcript in it is still being written.', {
        hint: 'Raise the transcript space in Settings → Terminal, or end open terminals, then open this one again.',
      });
    reserved += cap;
    const recorder = new TranscriptRecorder(dir, s, { ...opts, cap });
    void recorder.done.finally(() => {
      reserved -= cap;
    });
    return recorder;
  };
}
