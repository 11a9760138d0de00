// Limits and bookkeeping of the manager over an in-memory TerminalPty (Docker: terminal.int.test.ts).
import { describe, expect, it } from 'vitest';
import { isAppError } from '@/lib/core/errors';
import { type TerminalAuditEvent, TerminalManager } from './manager';
import type { TerminalPty } from './pty';

function memoryPty(): TerminalPty & { killed: number } {
  return {
    killed: 0,
    onData() {},
    onExit() {},
    write: async () => {},
    resize: async () => {},
    async kill() {
      this.killed += 1;
    },
  };
}

describe('TerminalManager', () => {
  it('counts opens still in flight against the limits', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const m = new TerminalManager({
      maxPerUser: 1,
      openPty: async () => {
        await gate;
        return memoryPty();
      },
    });
    const first = m.open({ userId: 'u', sandboxId: 'x', cols: 80, rows: 24 });
    const second = await m.open({ userId: 'u', sandboxId: 'x', cols: 80, rows: 24 }).catch((e: unknown) => e);
    expect(isAppError(second) && second.status).toBe(429);
    release();
    const s = await first;
    expect(m.list().map((x) => x.id)).toEqual([s.id]);
    await m.closeAll();
  });

  it('frees the slot of an open that failed', async () => {
    let fail = true;
    const m = new TerminalManager({
      maxPerSandbox: 1,
      openPty: async () => {
        if (fail) throw new Error('engine down');
        return memoryPty();
      },
    });
    await expect(m.open({ userId: 'u', sandboxId: 'x', cols: 80, rows: 24 })).rejects.toThrow('engine down');
    fail = false;
    const s = await m.open({ userId: 'u', sandboxId: 'x', cols: 80, rows: 24 });
    expect(s.sandboxId).toBe('x');
    await m.closeAll();
  });

  it('re-attaches only for the same user, and survives a failing audit callback', async () => {
    const events: TerminalAuditEvent[] = [];
    const m = new TerminalManager({
      openPty: async () => memoryPty(),
      audit: (e) => {
        events.push(e);
        throw new Error('audit store down');
      },
    });
    const s = await m.open({ userId: 'alice', sandboxId: 'x', cols: 80, rows: 24 });
    expect(m.find(s.id, 'alice')).toBe(s);
    const other = m.find(s.id, 'bob');
    expect(isAppError(other) && other.code).toBe('not_found');
    expect(isAppError(m.find('nope', 'alice'))).toBe(true);
    expect(await m.close(s.id)).toBe(true);
    await m.closeAll();
    expect(isAppError(m.find(s.id, 'alice'))).toBe(true);
    expect(events.map((e) => [e.phase, e.reason])).toEqual([
      ['start', null],
      ['end', 'closed'],
    ]);
  });
});
