// The session's queue, replay and timers, over an in-memory implementation of the TerminalPty
// interface (the real Docker one is exercised in terminal.int.test.ts).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLOSE, type ServerFrame } from './frames';
import type { TerminalPty } from './pty';
import { TerminalSession } from './session';

class MemoryPty implements TerminalPty {
  log: string[] = [];
  killed = 0;
  private data: ((b: Buffer) => void) | null = null;
  private exit: ((code: number | null) => void) | null = null;
  /** Writes wait for this gate, as a slow socket would. */
  gate: Promise<void> = Promise.resolve();
  onData(cb: (b: Buffer) => void) {
    this.data = cb;
  }
  onExit(cb: (code: number | null) => void) {
    this.exit = cb;
  }
  async write(b: Buffer) {
    this.log.push(`write:${b.toString()}`);
    await this.gate;
  }
  async resize(cols: number, rows: number) {
    this.log.push(`resize:${cols}x${rows}`);
  }
  async kill() {
    this.killed += 1;
  }
  emit(s: string) {
    this.data?.(Buffer.from(s));
  }
  exitWith(code: number) {
    this.exit?.(code);
  }
}

function consumer() {
  const c = {
    out: '',
    frames: [] as ServerFrame[],
    closed: null as null | { code: number; reason: string },
    send: (b: Buffer) => void (c.out += b.toString()),
    control: (f: ServerFrame) => void c.frames.push(f),
    close: (code: number, reason: string) => void (c.closed = { code, reason }),
  };
  return c;
}

const flush = () => new Promise((r) => setImmediate(r));

function session(pty: MemoryPty, extra: Partial<ConstructorParameters<typeof TerminalSession>[0]> = {}) {
  return new TerminalSession({ id: 's1', userId: 'u', sandboxId: 'x', pty, cols: 80, rows: 24, ...extra });
}

afterEach(() => vi.useRealTimers());

describe('TerminalSession', () => {
  it('never lets a resize overtake input typed before it, and collapses a burst of resizes', async () => {
    const pty = new MemoryPty();
    let open!: () => void;
    pty.gate = new Promise((r) => (open = r));
    const s = session(pty);
    s.input(Buffer.from('ls\n'));
    for (let i = 1; i <= 50; i++) s.resize(100 + i, 30);
    s.input(Buffer.from('pwd\n'));
    await flush();
    expect(pty.log).toEqual(['write:ls\n']);
    open();
    await flush();
    await flush();
    expect(pty.log).toEqual(['write:ls\n', 'resize:150x30', 'write:pwd\n']);
    expect(s.summary()).toMatchObject({ cols: 150, rows: 30, bytesIn: 7 });
    await s.end('closed');
  });

  it('cuts off a consumer that floods the queue with the limit code, keeping the session', async () => {
    const pty = new MemoryPty();
    pty.gate = new Promise(() => {});
    const s = session(pty, { maxQueue: 8 });
    const c = consumer();
    s.attach(c);
    for (let i = 0; i < 20; i++) s.input(Buffer.from('x'));
    expect(c.closed).toEqual(CLOSE.limit);
    expect(s.attached).toBe(false);
    expect(s.ended).toBe(false);
    await s.end('closed');
  });

  it('replays from the offset a client got to, or everything kept, and closes a replaced consumer', async () => {
    const pty = new MemoryPty();
    const s = session(pty, { ringBytes: 8 });
    pty.emit('abc');
    const a = consumer();
    s.attach(a);
    expect(a.frames).toEqual([{ type: 'ready', sessionId: 's1', replayFrom: 0 }]);
    expect(a.out).toBe('abc');
    s.detach(a);
    pty.emit('def');
    const b = consumer();
    s.attach(b, { lastOffset: 3 });
    expect(b.frames[0]).toEqual({ type: 'ready', sessionId: 's1', replayFrom: 3 });
    expect(b.out).toBe('def');
    pty.emit('ghijkl'); // 12 bytes so far; the ring keeps the last 8
    const c = consumer();
    s.attach(c, { lastOffset: 3 });
    expect(b.closed).toEqual(CLOSE.replaced);
    expect(c.frames[0]).toEqual({ type: 'ready', sessionId: 's1', replayFrom: 4 });
    expect(c.out).toBe('efghijkl');
    await s.end('closed');
    expect(() => s.attach(consumer())).toThrow(/ended/);
  });

  it('drops the answers a client gives to terminal queries found in replayed output', async () => {
    const pty = new MemoryPty();
    const s = session(pty);
    pty.emit('$ \x1b[6n');
    pty.emit('ls\r\n\x1b[c$ \x1b[6n');
    const c = consumer();
    s.attach(c);
    s.input(Buffer.from('\x1b[5;3R'));
    s.input(Buffer.from('\x1b[?1;2c\x1b[5;3R'));
    s.input(Buffer.from('pwd\n'));
    s.input(Buffer.from('\x1b[6;3R')); // the live shell asked this one
    await flush();
    expect(pty.log).toEqual(['write:pwd\n', 'write:\x1b[6;3R']);
    await s.end('closed');
  });

  it('ends after the grace period only while detached', async () => {
    vi.useFakeTimers();
    const pty = new MemoryPty();
    const s = session(pty, { graceMs: 1000 });
    const c = consumer();
    s.attach(c);
    await vi.advanceTimersByTimeAsync(5000);
    expect(s.ended).toBe(false);
    s.detach(c);
    await vi.advanceTimersByTimeAsync(999);
    expect(s.ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(s.endReason).toBe('grace_expired');
    expect(pty.killed).toBe(1);
  });

  it('ends when no input arrived for the idle period, closing with the idle code', async () => {
    vi.useFakeTimers();
    const pty = new MemoryPty();
    let t = 0;
    const s = session(pty, { idleMs: 1000, now: () => t });
    const c = consumer();
    s.attach(c);
    t = 600;
    s.input(Buffer.from('a'));
    t = 1000;
    await vi.advanceTimersByTimeAsync(1000);
    expect(s.ended).toBe(false);
    t = 1600;
    await vi.advanceTimersByTimeAsync(600);
    expect(s.endReason).toBe('idle');
    expect(c.closed).toEqual(CLOSE.idle);
  });

  it('counts typed input as activity, never resizes: a client resizing forever still idles out', async () => {
    vi.useFakeTimers();
    const pty = new MemoryPty();
    let t = 0;
    const s = session(pty, { idleMs: 1000, now: () => t });
    const c = consumer();
    s.attach(c);
    for (const at of [300, 600, 900]) {
      t = at;
      s.resize(80 + at / 100, 24);
      await vi.advanceTimersByTimeAsync(300);
    }
    t = 1000;
    await vi.advanceTimersByTimeAsync(100);
    expect(s.endReason).toBe('idle');
    expect(c.closed).toEqual(CLOSE.idle);
  });

  it('reports the exit code, then ends and still kills what the shell left behind', async () => {
    const pty = new MemoryPty();
    const ends: string[] = [];
    const s = session(pty, { onEnd: (_s, reason) => ends.push(reason) });
    const c = consumer();
    s.attach(c);
    pty.exitWith(3);
    await flush();
    expect(c.frames).toContainEqual({ type: 'exited', code: 3 });
    expect(c.closed).toEqual(CLOSE.exited);
    expect(pty.killed).toBe(1);
    expect(ends).toEqual(['exited']);
    await s.end('closed');
    expect(ends).toEqual(['exited']);
  });
});
