// Terminal transcripts in asciicast v2, one file per session: `<dataDir>/terminal-transcripts/<id>.cast`.
//
// The .cast file is a header line (`{version: 2, width, height, timestamp, title, env: {TERM}}`) and
// then one JSON array per event: `[seconds since start, "o" | "r" | "m", data]` — output, a resize
// (`"COLSxROWS"`) and markers. Typed input is not recorded: what the shell echoed is in the output,
// and what it did not echo (a password at a prompt with echo off) stays out of the transcript. Everything is written through one append stream, in the order
// the session saw it. Past the cap, one `"m"` line notes the truncation and later input and output are
// dropped; the session's end is always the last line, `[t, "m", "ended: <reason>"]`.
//
// Beside it, `<id>.json` (written atomically) says who, where and when: the user's label and id, the
// sandbox instance id, the start, and once the session ended its end, reason and whether it was
// truncated. A sidecar with no end belongs to a session still open, or to one cut short by a crash.
import fs from 'node:fs';
import path from 'node:path';
import type { Actor } from '../auth/actor';
import { writeFileAtomic } from '../core/atomic-fs';
import { logger } from '../core/logger';
import type { EndReason, SessionTap } from './session';

export const TRANSCRIPTS_DIR = 'terminal-transcripts';
/** Event bytes kept per transcript; the truncation note and the end marker come on top (each a line). */
export const DEFAULT_TRANSCRIPT_CAP = 64 * 1024 * 1024;
const TERM = 'xterm-256color';

export interface TranscriptMeta {
  id: string;
  user: string;
  userId: string;
  sandboxId: string;
  startedAt: string;
  endedAt: string | null;
  reason: string | null;
  truncated: boolean;
}

/** What the terminal service knows of a session as it opens. */
export interface TranscriptStart {
  sessionId: string;
  actor: Actor;
  sandboxId: string;
  cols: number;
  rows: number;
}

export interface RecorderOptions {
  /** Event bytes kept before the rest is dropped. */
  cap?: number;
  now?: () => number;
}

export const transcriptsDir = (dataDir: string): string => path.join(dataDir, TRANSCRIPTS_DIR);
export const castPath = (dir: string, id: string): string => path.join(dir, `${id}.cast`);
export const metaPath = (dir: string, id: string): string => path.join(dir, `${id}.json`);

/** The folder, private to this process's user; created on first use. */
export function ensureTranscriptsDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

/** Records one session; the terminal session calls it as its tap. */
export class TranscriptRecorder implements SessionTap {
  readonly meta: TranscriptMeta;
  /** Settles once the sidecar of the open session (who, where, since when) is written. */
  readonly started: Promise<void>;
  /** Settles once the .cast file is closed and the sidecar holds the end. */
  readonly done: Promise<void>;
  private readonly stream: fs.WriteStream;
  private readonly startMs: number;
  private readonly now: () => number;
  private readonly cap: number;
  private readonly outText = new TextDecoder('utf-8');
  private written = 0;
  private state: 'recording' | 'truncated' | 'ended' | 'failed' = 'recording';
  private metaWrite: Promise<void>;
  private finish: () => void = () => undefined;

  constructor(
    private readonly dir: string,
    s: TranscriptStart,
    opts: RecorderOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.cap = opts.cap ?? DEFAULT_TRANSCRIPT_CAP;
    this.startMs = this.now();
    this.meta = {
      id: s.sessionId,
      user: s.actor.label,
      userId: s.actor.userId ?? '',
      sandboxId: s.sandboxId,
      startedAt: new Date(this.startMs).toISOString(),
      endedAt: null,
      reason: null,
      truncated: false,
    };
    // `wx`: never append to (or follow a link at) a name that already exists.
    this.stream = fs.createWriteStream(castPath(dir, s.sessionId), { flags: 'wx', mode: 0o600 });
    this.stream.on('error', (e) => {
      if (this.state !== 'failed') logger.error('terminal transcript write failed', { sessionId: s.sessionId, error: String(e) });
      this.state = 'failed';
    });
    const closed = new Promise<void>((resolve) => this.stream.once('close', () => resolve()));
    const header = {
      version: 2,
      width: s.cols,
      height: s.rows,
      timestamp: Math.floor(this.startMs / 1000),
      title: `${s.actor.label} in ${s.sandboxId}`,
      env: { TERM },
    };
    this.stream.write(`${JSON.stringify(header)}\n`);
    this.metaWrite = this.saveMeta();
    this.started = this.metaWrite;
    const ended = new Promise<void>((resolve) => {
      this.finish = resolve;
    });
    this.done = ended.then(() => closed).then(() => (this.metaWrite = this.metaWrite.then(() => this.saveMeta())));
  }

  output(bytes: Buffer): void {
    if (this.state === 'recording') this.event('o', this.outText.decode(bytes, { stream: true }));
  }

  /** Input is not recorded: the echo, when the terminal echoes, is in the output. */
  input(_bytes: Buffer): void {}

  resize(cols: number, rows: number): void {
    this.event('r', `${cols}x${rows}`);
  }

  end(reason: EndReason): void {
    if (this.state === 'ended') return;
    if (this.state === 'recording') {
      // Bytes of a character the shell never finished come out as U+FFFD rather than vanish.
      this.event('o', this.outText.decode());
    }
    if (this.state !== 'failed') this.line(this.lineOf('m', `ended: ${reason}`));
    this.meta.endedAt = new Date(this.now()).toISOString();
    this.meta.reason = reason;
    this.meta.truncated = this.state === 'truncated';
    this.state = 'ended';
    this.stream.end();
    this.finish();
  }

  private lineOf(code: 'o' | 'r' | 'm', data: string): string {
    const t = Math.max(0, this.now() - this.startMs) / 1000;
    return `${JSON.stringify([Number(t.toFixed(3)), code, data])}\n`;
  }

  private event(code: 'o' | 'r', data: string): void {
    if (this.state !== 'recording' || data === '') return;
    const line = this.lineOf(code, data);
    const size = Buffer.byteLength(line);
    if (this.written + size > this.cap) {
      this.state = 'truncated';
      this.line(this.lineOf('m', `truncated: the transcript reached its ${this.cap}-byte cap; later output was not recorded`));
      return;
    }
    this.written += size;
    this.line(line);
  }

  private line(text: string): void {
    if (this.state !== 'failed' && !this.stream.destroyed) this.stream.write(text);
  }

  private saveMeta(): Promise<void> {
    const snapshot = JSON.stringify(this.meta);
    return writeFileAtomic(metaPath(this.dir, this.meta.id), `${snapshot}\n`, 0o600).catch((e) =>
      logger.error('terminal transcript sidecar write failed', { sessionId: this.meta.id, error: String(e) }),
    );
  }
}
