// One terminal session: a shell that outlives the socket it was opened from. Output goes to a ring
// buffer with absolute offsets and to the attached consumer, if any; a re-attach names the offset it
// got to and receives exactly the bytes after it. Input and resize share one ordered queue, because a
// resize is an HTTP call to the engine and would otherwise overtake keystrokes typed before it.
import { AppError } from '@/lib/core/errors';
import { CLOSE, type CloseKind, type ServerFrame } from './frames';
import type { TerminalPty } from './pty';
import { ByteRing, DEFAULT_RING_BYTES } from './ring';

/** The socket side, as the WebSocket route adapts it. */
export interface TerminalConsumer {
  send(bytes: Buffer): void;
  control(frame: ServerFrame): void;
  close(code: number, reason: string): void;
}

export type EndReason = CloseKind | 'grace_expired';

/** Sees every byte that goes in and out of a session, in order, and its end. */
export interface SessionTap {
  input(bytes: Buffer): void;
  output(bytes: Buffer): void;
  resize(cols: number, rows: number): void;
  end(reason: EndReason): void;
}

export const DEFAULT_GRACE_MS = 5 * 60_000;
export const DEFAULT_IDLE_MS = 900_000;
/** Pending input/resize operations beyond which the consumer is cut off for flooding. */
export const DEFAULT_MAX_QUEUE = 1024;

export interface SessionOptions {
  id: string;
  userId: string;
  sandboxId: string;
  pty: TerminalPty;
  cols: number;
  rows: number;
  ringBytes?: number;
  /** How long a detached session waits for a re-attach. */
  graceMs?: number;
  /** No input for this long ends the session. */
  idleMs?: number;
  maxQueue?: number;
  tap?: SessionTap;
  now?: () => number;
  onEnd?: (session: TerminalSession, reason: EndReason, error: unknown) => void;
}

export interface SessionSummary {
  id: string;
  userId: string;
  sandboxId: string;
  startedAt: number;
  lastInputAt: number;
  bytesIn: number;
  bytesOut: number;
  attached: boolean;
  cols: number;
  rows: number;
}

// Queries a terminal answers by itself (cursor position, primary device attributes) and the answers.
const QUERY_RE = /\x1b\[(?:6n|0?c)/g;
const ANSWERS_RE = /^(?:\x1b\[\d+;\d+R|\x1b\[\?[\d;]*c)+$/;
const ANSWER_RE = /\x1b\[\d+;\d+R|\x1b\[\?[\d;]*c/g;

type Op = { kind: 'write'; bytes: Buffer } | { kind: 'resize'; cols: number; rows: number };

export class TerminalSession {
  readonly id: string;
  readonly userId: string;
  readonly sandboxId: string;
  readonly startedAt: number;
  bytesIn = 0;
  bytesOut = 0;
  lastInputAt: number;
  endedAt: number | null = null;
  endReason: EndReason | null = null;
  private cols: number;
  private rows: number;
  private readonly ring: ByteRing;
  private readonly pty: TerminalPty;
  private readonly opts: SessionOptions;
  private readonly now: () => number;
  private consumer: TerminalConsumer | null = null;
  private readonly queue: Op[] = [];
  private pumping = false;
  private graceTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private ending: Promise<void> | null = null;
  /** Answers still owed by the client to queries it saw in replayed output; the shell did not ask them now. */
  private staleAnswers = 0;

  constructor(opts: SessionOptions) {
    this.opts = opts;
    this.id = opts.id;
    this.userId = opts.userId;
    this.sandboxId = opts.sandboxId;
    this.pty = opts.pty;
    this.cols = opts.cols;
    this.rows = opts.rows;
    this.now = opts.now ?? Date.now;
    this.startedAt = this.now();
    this.lastInputAt = this.startedAt;
    this.ring = new ByteRing(opts.ringBytes ?? DEFAULT_RING_BYTES);
    this.pty.onData((bytes) => this.output(bytes));
    this.pty.onExit((code) => {
      if (this.ending) return;
      this.consumer?.control({ type: 'exited', code });
      void this.end('exited');
    });
    this.armIdle(this.idleMs);
    this.startGrace();
  }

  get ended(): boolean {
    return this.ending !== null;
  }

  get attached(): boolean {
    return this.consumer !== null;
  }

  /** The offset just past the newest output byte. */
  get outputOffset(): number {
    return this.ring.end;
  }

  /**
   * Attaches a consumer (replacing any other, which is closed), sends `ready` with the offset the
   * replay starts at, then the missed bytes, then live output. `lastOffset` is the offset the client
   * got to; absent or overwritten, the replay starts at the oldest byte kept.
   */
  attach(consumer: TerminalConsumer, opts: { cols?: number; rows?: number; lastOffset?: number } = {}): void {
    if (this.ending) throw new AppError('invalid_state', 'this terminal session has ended');
    const previous = this.consumer;
    this.consumer = null;
    if (previous) previous.close(CLOSE.replaced.code, CLOSE.replaced.reason);
    this.pty.resume?.();
    this.clearGrace();
    let from = this.ring.start;
    let bytes = this.ring.since(from) as Buffer;
    if (opts.lastOffset !== undefined) {
      const delta = this.ring.since(opts.lastOffset);
      if (delta !== 'gap') {
        from = opts.lastOffset;
        bytes = delta;
      }
    }
    this.consumer = consumer;
    this.staleAnswers = bytes.toString('latin1').match(QUERY_RE)?.length ?? 0;
    consumer.control({ type: 'ready', sessionId: this.id, replayFrom: from });
    if (bytes.length > 0) consumer.send(bytes);
    if (opts.cols !== undefined && opts.rows !== undefined) this.resize(opts.cols, opts.rows);
  }

  /**
   * Back-pressure from the consumer's socket: while paused the shell's output is not read, so a
   * command writing fast waits on its TTY instead of piling up in memory.
   */
  setFlowing(consumer: TerminalConsumer, flowing: boolean): void {
    if (this.consumer !== consumer || this.ending) return;
    if (flowing) this.pty.resume?.();
    else this.pty.pause?.();
  }

  /** Lets the consumer go (its socket dropped); the shell keeps running for the grace period. */
  detach(consumer: TerminalConsumer): void {
    if (this.consumer !== consumer) return;
    this.consumer = null;
    this.pty.resume?.();
    if (!this.ending) this.startGrace();
  }

  input(bytes: Buffer): void {
    if (this.ending || bytes.length === 0) return;
    if (this.staleAnswers > 0) {
      const text = bytes.toString('latin1');
      if (ANSWERS_RE.test(text)) {
        this.staleAnswers = Math.max(0, this.staleAnswers - (text.match(ANSWER_RE)?.length ?? 0));
        return;
      }
    }
    this.lastInputAt = this.now();
    this.bytesIn += bytes.length;
    this.opts.tap?.input(bytes);
    this.enqueue({ kind: 'write', bytes });
  }

  /** Not activity: only typed input keeps a session from idling out. */
  resize(cols: number, rows: number): void {
    if (this.ending) return;
    const tail = this.queue[this.queue.length - 1];
    // A burst of resizes (a window being dragged) collapses into the last one not yet sent.
    if (tail?.kind === 'resize') {
      tail.cols = cols;
      tail.rows = rows;
      return;
    }
    this.enqueue({ kind: 'resize', cols, rows });
  }

  /** Ends the session: closes the consumer with the reason's code, kills the shell's processes. Idempotent. */
  end(reason: EndReason): Promise<void> {
    if (this.ending) return this.ending;
    this.endReason = reason;
    this.clearGrace();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.queue.length = 0;
    const consumer = this.consumer;
    this.consumer = null;
    if (consumer) {
      const close = reason === 'grace_expired' ? CLOSE.exited : CLOSE[reason];
      consumer.close(close.code, close.reason);
    }
    this.ending = this.pty.kill().then(
      () => this.finish(reason, null),
      (e: unknown) => this.finish(reason, e),
    );
    return this.ending;
  }

  summary(): SessionSummary {
    return {
      id: this.id,
      userId: this.userId,
      sandboxId: this.sandboxId,
      startedAt: this.startedAt,
      lastInputAt: this.lastInputAt,
      bytesIn: this.bytesIn,
      bytesOut: this.bytesOut,
      attached: this.consumer !== null,
      cols: this.cols,
      rows: this.rows,
    };
  }

  private finish(reason: EndReason, error: unknown): void {
    this.endedAt = this.now();
    this.opts.tap?.end(reason);
    this.opts.onEnd?.(this, reason, error);
  }

  private get idleMs(): number {
    return this.opts.idleMs ?? DEFAULT_IDLE_MS;
  }

  private output(bytes: Buffer): void {
    this.bytesOut += bytes.length;
    this.opts.tap?.output(bytes);
    this.ring.append(bytes);
    this.consumer?.send(bytes);
  }

  private enqueue(op: Op): void {
    if (this.queue.length >= (this.opts.maxQueue ?? DEFAULT_MAX_QUEUE)) {
      const consumer = this.consumer;
      if (consumer) {
        this.detach(consumer);
        consumer.close(CLOSE.limit.code, CLOSE.limit.reason);
      }
      return;
    }
    this.queue.push(op);
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (let op = this.queue.shift(); op && !this.ending; op = this.queue.shift()) {
        if (op.kind === 'write') await this.pty.write(op.bytes);
        else {
          this.cols = op.cols;
          this.rows = op.rows;
          this.opts.tap?.resize(op.cols, op.rows);
          await this.pty.resize(op.cols, op.rows);
        }
      }
    } catch {
      void this.end('internal');
    } finally {
      this.pumping = false;
    }
  }

  // One timer per session, re-armed for the remainder instead of reset on every keystroke.
  private armIdle(ms: number): void {
    this.idleTimer = setTimeout(() => {
      if (this.ending) return;
      const left = this.lastInputAt + this.idleMs - this.now();
      if (left > 0) this.armIdle(left);
      else void this.end('idle');
    }, ms);
    this.idleTimer.unref();
  }

  private startGrace(): void {
    this.clearGrace();
    this.graceTimer = setTimeout(() => void this.end('grace_expired'), this.opts.graceMs ?? DEFAULT_GRACE_MS);
    this.graceTimer.unref();
  }

  private clearGrace(): void {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
  }
}
