'use client';

import { ApiError } from '../api';
import { OutputCursor } from './output-cursor';
import {
  backoffMs,
  binaryStringToBytes,
  chunkBytes,
  clampDimension,
  describeClose,
  type GetTicket,
  IDLE_WARNING_SECONDS,
  isAbnormalClose,
  MAX_RECONNECT_ATTEMPTS,
  PING_INTERVAL_MS,
  TEST_DROP_CODE,
  type TerminalStatus,
  type Ticket,
  terminalUrl,
  ticketRefusalText,
} from './protocol';
import { SessionSaver, savedSession } from './session-store';

export interface TerminalSocketOptions {
  instanceId: string;
  getTicket: GetTicket;
  onOutput: (bytes: Uint8Array) => void;
  onStatus: (status: TerminalStatus) => void;
  /** The screen belongs to a session that ended and a new one starts: clear it. */
  onNewSession?: () => void;
  onTicket?: (ticket: Ticket) => void;
  size: () => { cols: number; rows: number };
}

const encoder = new TextEncoder();

/**
 * One terminal connection into a sandbox: a fresh single-use ticket per socket, re-attach with the
 * session id and byte offset after a network drop (backoff 1 s → 30 s), never after a close the
 * server chose, pings, and the idle countdown. The owner gives it the screen's size and a sink.
 */
export class TerminalSocket {
  private ws: WebSocket | null = null;
  private _sessionId: string | null = null;
  private readonly cursor = new OutputCursor();
  private attempt = 0;
  private generation = 0;
  private idleSeconds = 0;
  private lastInputAt = Date.now();
  private lastError: string | null = null;
  private testDrop = false;
  /** The server drops frames that come before `ready`, so nothing but the URL carries input until then. */
  private ready = false;
  private sentSize = { cols: 0, rows: 0 };
  private disposed = false;
  private status: TerminalStatus = { state: 'connecting' };
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private idleTimer: ReturnType<typeof setInterval> | undefined;

  private readonly saver: SessionSaver;

  constructor(private readonly opts: TerminalSocketOptions) {
    this.saver = new SessionSaver(opts.instanceId);
    window.addEventListener('online', this.onOnline);
    window.addEventListener('pagehide', this.saver.flush);
  }

  get sessionId(): string | null {
    return this._sessionId;
  }
  get offset(): number {
    return this.cursor.offset;
  }

  /** Re-attaches to the session this tab saved for the instance, or opens a new one. */
  start(): void {
    const saved = savedSession(this.opts.instanceId);
    this._sessionId = saved?.sessionId ?? null;
    // A reloaded page has an empty screen: it asks for the whole replay, not only what follows the offset.
    this.cursor.reset(saved?.offset ?? 0);
    void this.connect(false);
  }

  /** "Reconnect": picks the same shell up again when it may still run (a 404 falls back to a new one). */
  reconnect(): void {
    this.attempt = 0;
    void this.connect(false);
  }

  /** "Open a new terminal": forgets the old session and clears the screen. */
  openNew(): void {
    this.resetSession();
    this.attempt = 0;
    void this.connect(false);
  }

  /** Typed or pasted text, as UTF-8. */
  sendText(data: string): void {
    this.sendBytes(encoder.encode(data));
  }
  /** xterm's onBinary payload (one byte per char code). */
  sendBinary(data: string): void {
    this.sendBytes(binaryStringToBytes(data));
  }

  resize(cols: number, rows: number): void {
    if (!this.ready || this.ws?.readyState !== WebSocket.OPEN) return;
    const size = { cols: clampDimension(cols), rows: clampDimension(rows) };
    if (size.cols === this.sentSize.cols && size.rows === this.sentSize.rows) return;
    this.sentSize = size;
    this.ws.send(JSON.stringify({ type: 'resize', ...size }));
    this.noteInput();
  }

  /** For tests: closes the socket as a network drop would; the server keeps the session. */
  drop(): void {
    this.testDrop = !!this.ws;
    this.ws?.close(TEST_DROP_CODE, 'test drop');
  }

  dispose(): void {
    this.disposed = true;
    this.generation++;
    clearTimeout(this.retryTimer);
    this.stopTimers();
    this.saver.flush();
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('pagehide', this.saver.flush);
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000, 'page closed');
  }

  private async connect(retrying: boolean): Promise<void> {
    if (this.disposed) return;
    clearTimeout(this.retryTimer);
    this.stopTimers();
    const old = this.ws;
    this.ws = null;
    this.ready = false;
    old?.close(1000, 'reconnecting');
    const gen = ++this.generation;
    this.lastError = null;
    if (!retrying) this.setStatus({ state: 'connecting' });
    let ticket: Ticket;
    try {
      ticket = await this.opts.getTicket(this._sessionId ?? undefined);
    } catch (e) {
      if (gen !== this.generation) return;
      if (e instanceof ApiError && (e.status === 404 || e.status === 400) && this._sessionId) {
        // The saved shell has ended (or is not this user's): start a fresh one.
        this.resetSession();
        return this.connect(retrying);
      }
      if (e instanceof ApiError && (e.status === 0 || e.status >= 500)) return this.scheduleRetry();
      this.setStatus({ state: 'error', message: ticketRefusalText(e), reattach: !!this._sessionId });
      return;
    }
    if (gen !== this.generation) return;
    this.idleSeconds = ticket.idleSeconds;
    this.opts.onTicket?.(ticket);
    const { cols, rows } = this.opts.size();
    this.sentSize = { cols, rows };
    const session = this._sessionId ?? undefined;
    const url = terminalUrl(window.location, {
      ticket: ticket.ticket,
      sandbox: this.opts.instanceId,
      cols,
      rows,
      session,
      offset: session && this.cursor.inSync ? this.cursor.offset : undefined,
    });
    const ws = new WebSocket(url);
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      if (typeof ev.data === 'string') this.onControl(ev.data);
      else this.onBytes(new Uint8Array(ev.data as ArrayBuffer));
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.ready = false;
      this.stopTimers();
      this.onClosed(ev.code);
    };
  }

  private onControl(text: string): void {
    let msg: { type?: string; sessionId?: string; replayFrom?: number; code?: number | null; message?: string };
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.type === 'ready' && typeof msg.sessionId === 'string' && typeof msg.replayFrom === 'number') this.onReady(msg.sessionId, msg.replayFrom);
    else if (msg.type === 'exited') {
      this.saver.forget();
      this.setStatus({ state: 'exited', code: typeof msg.code === 'number' ? msg.code : null });
    } else if (msg.type === 'error' && typeof msg.message === 'string') this.lastError = msg.message;
  }

  private onReady(sessionId: string, replayFrom: number): void {
    if (sessionId !== this._sessionId) {
      if (this.cursor.inSync) this.opts.onNewSession?.();
      this.cursor.reset();
      this.lastInputAt = Date.now();
    }
    this._sessionId = sessionId;
    if (this.cursor.begin(replayFrom)) this.opts.onOutput(encoder.encode('\r\n\x1b[2m[some output was lost while disconnected]\x1b[0m\r\n'));
    this.attempt = 0;
    this.ready = true;
    this.saver.save({ sessionId, offset: this.cursor.offset }, true);
    this.pingTimer = setInterval(() => this.ws?.readyState === WebSocket.OPEN && this.ws.send('{"type":"ping"}'), PING_INTERVAL_MS);
    this.idleTimer = setInterval(() => this.checkIdle(), 1000);
    this.setStatus({ state: 'connected' });
    // The screen may have been fitted while the socket was opening.
    const { cols, rows } = this.opts.size();
    this.resize(cols, rows);
    this.checkIdle();
  }

  private onBytes(bytes: Uint8Array): void {
    const fresh = this.cursor.take(bytes);
    if (!fresh) return;
    this.opts.onOutput(fresh);
    if (this._sessionId) this.saver.save({ sessionId: this._sessionId, offset: this.cursor.offset });
  }

  private onClosed(code: number): void {
    const testDrop = this.testDrop;
    this.testDrop = false;
    if (this.disposed || this.status.state === 'exited') return;
    if (code === 4006) {
      this.saver.forget();
      return this.setStatus({ state: 'exited', code: null });
    }
    if (testDrop || isAbnormalClose(code)) return this.scheduleRetry();
    const d = describeClose(code);
    if (d.sessionEnded) this.saver.forget();
    const reason = this.lastError ? `${d.text} (${this.lastError})` : d.text;
    this.setStatus({ state: 'closed', code, reason, reattach: !d.sessionEnded && !!this._sessionId });
  }

  private scheduleRetry(): void {
    this.attempt++;
    if (this.attempt > MAX_RECONNECT_ATTEMPTS) {
      const message = `The terminal server could not be reached after ${MAX_RECONNECT_ATTEMPTS} attempts.`;
      return this.setStatus({ state: 'error', message, reattach: !!this._sessionId });
    }
    const ms = backoffMs(this.attempt);
    this.setStatus({ state: 'reconnecting', inSeconds: Math.round(ms / 1000), attempt: this.attempt });
    this.retryTimer = setTimeout(() => void this.connect(true), ms);
  }

  private readonly onOnline = () => {
    if (this.status.state === 'reconnecting') void this.connect(true);
  };

  private sendBytes(bytes: Uint8Array): void {
    if (!this.ready || this.ws?.readyState !== WebSocket.OPEN || bytes.length === 0) return;
    for (const chunk of chunkBytes(bytes)) this.ws.send(chunk);
    this.noteInput();
  }

  private noteInput(): void {
    this.lastInputAt = Date.now();
    if (this.status.state === 'idle-warning') this.setStatus({ state: 'connected' });
  }

  /** The countdown runs from the client's own last input (the server counts keystrokes and resizes). */
  private checkIdle(): void {
    const s = this.status;
    if (this.idleSeconds <= 0 || (s.state !== 'connected' && s.state !== 'idle-warning')) return;
    const left = Math.max(0, this.idleSeconds - Math.floor((Date.now() - this.lastInputAt) / 1000));
    // A short idle disconnect warns over its last quarter, so the warning is not on all the time.
    if (left > Math.min(IDLE_WARNING_SECONDS, Math.floor(this.idleSeconds / 4))) {
      if (s.state === 'idle-warning') this.setStatus({ state: 'connected' });
    } else if (s.state !== 'idle-warning' || s.seconds !== left) this.setStatus({ state: 'idle-warning', seconds: left });
  }

  private setStatus(s: TerminalStatus): void {
    this.status = s;
    this.opts.onStatus(s);
  }

  private stopTimers(): void {
    clearInterval(this.pingTimer);
    clearInterval(this.idleTimer);
  }

  private resetSession(): void {
    this.saver.forget();
    if (this.cursor.inSync || this.cursor.offset > 0) this.opts.onNewSession?.();
    this._sessionId = null;
    this.cursor.reset();
  }
}
