// The E2B terminal over an in-memory envd (the real protocol is exercised in e2b-pty.int.test.ts).
import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import type { ExecRequest, ExecResult } from '@/lib/sandbox/backend';
import type { ProcessEvent, StartProcess } from '@/lib/sandbox/e2b/envd';
import { type E2bTerminalHost, type EnvdPty, openE2bPty } from './e2b-pty';
import { TERMINAL_ID_ENV } from './marker-kill';
import type { PtyOpenRequest } from './pty';

class MemoryEnvd implements EnvdPty {
  calls: string[] = [];
  started: StartProcess | undefined;
  fail: Error | null = null;
  private queue: ProcessEvent[] = [];
  private wake: (() => void) | null = null;
  private closed = false;

  push(...evs: ProcessEvent[]) {
    this.queue.push(...evs);
    this.wake?.();
  }
  close() {
    this.closed = true;
    this.wake?.();
  }
  async *start(p: StartProcess, opts: { signal?: AbortSignal } = {}): AsyncGenerator<ProcessEvent> {
    this.started = p;
    opts.signal?.addEventListener('abort', () => {
      this.calls.push('abort');
      this.close();
    });
    for (;;) {
      const ev = this.queue.shift();
      if (ev) yield ev;
      else if (this.closed) {
        if (opts.signal?.aborted) throw new Error('aborted');
        return;
      } else await new Promise<void>((r) => (this.wake = r));
    }
  }
  private call(what: string): Promise<unknown> {
    this.calls.push(what);
    return this.fail ? Promise.reject(this.fail) : Promise.resolve({});
  }
  sendInput(pid: number, data: Buffer, pty?: boolean) {
    return this.call(`input:${pid}:${data.toString()}:${pty}`);
  }
  resize(pid: number, cols: number, rows: number) {
    return this.call(`resize:${pid}:${cols}x${rows}`);
  }
  sendSignal(pid: number, signal?: string) {
    return this.call(`signal:${pid}:${signal}`);
  }
}

function host(envd: MemoryEnvd, killExit = 0): E2bTerminalHost & { execs: ExecRequest[] } {
  const execs: ExecRequest[] = [];
  return {
    execs,
    envd: async () => envd,
    async exec(_id: string, req: ExecRequest): Promise<ExecResult> {
      execs.push(req);
      envd.calls.push(`exec:${req.argv.at(-1)}`);
      return { exitCode: killExit, stdout: '', stderr: killExit ? 'left' : '', truncated: false, timedOut: false, durationMs: 1 };
    },
  };
}

const req: PtyOpenRequest = { sessionId: 'sess1', userId: 'u', sandboxId: 'isb', cols: 100, rows: 30, env: { TERM: 'dumb', FOO: 'bar' } };
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('openE2bPty', () => {
  it('starts the shell with a PTY, the terminal env and the marker; output arrives in order; input and resize go to its pid', async () => {
    const envd = new MemoryEnvd();
    envd.push({ type: 'keepalive' }, { type: 'start', pid: 42 }, { type: 'data', stream: 'pty', data: Buffer.from('a') });
    const pty = await openE2bPty(host(envd), req);
    envd.push({ type: 'data', stream: 'pty', data: Buffer.from('b') });
    await tick();
    const seen: string[] = [];
    pty.onData((b) => seen.push(b.toString()));
    envd.push({ type: 'data', stream: 'pty', data: Buffer.from('c') });
    await tick();
    expect(seen.join('')).toBe('abc');
    expect(envd.started).toMatchObject({ cmd: '/bin/sh', pty: { cols: 100, rows: 30 } });
    expect(envd.started?.envs).toEqual({ TERM: 'dumb', LANG: 'C.UTF-8', FOO: 'bar', [TERMINAL_ID_ENV]: 'sess1' });
    await pty.write(Buffer.from('ls\r'));
    await pty.resize(120, 40);
    expect(envd.calls).toEqual(['input:42:ls\r:true', 'resize:42:120x40']);
  });

  it('holds output while paused and delivers it in order on resume', async () => {
    const envd = new MemoryEnvd();
    envd.push({ type: 'start', pid: 3 });
    const pty = await openE2bPty(host(envd), req);
    const seen: string[] = [];
    pty.onData((b) => seen.push(b.toString()));
    envd.push({ type: 'data', stream: 'pty', data: Buffer.from('a') });
    await tick();
    pty.pause?.();
    envd.push({ type: 'data', stream: 'pty', data: Buffer.from('b') }, { type: 'data', stream: 'pty', data: Buffer.from('c') });
    await tick();
    expect(seen.join('')).toBe('a');
    pty.resume?.();
    await tick();
    expect(seen.join('')).toBe('abc');
    // A kill while paused still ends the stream and reports the end.
    const codes: (number | null)[] = [];
    pty.onExit((c) => codes.push(c));
    pty.pause?.();
    envd.push({ type: 'data', stream: 'pty', data: Buffer.from('d') });
    await pty.kill();
    await tick();
    expect(codes).toEqual([null]);
  });

  it.each([
    [{ type: 'end', exitCode: 3 } as const, 3],
    [{ type: 'end', exitCode: -1, status: 'signal: killed' } as const, 137],
    [{ type: 'end', exitCode: -1, status: 'signal: 15' } as const, 143],
    [{ type: 'end', exitCode: -1 } as const, null],
    [null, null],
  ])('reports the end %o as exit code %s, once', async (end, code) => {
    const envd = new MemoryEnvd();
    envd.push({ type: 'start', pid: 7 });
    const pty = await openE2bPty(host(envd), req);
    const codes: (number | null)[] = [];
    pty.onExit((c) => codes.push(c));
    if (end) envd.push(end);
    envd.close();
    await tick();
    expect(codes).toEqual([code]);
    // Input after the end is dropped.
    await pty.write(Buffer.from('x'));
    expect(envd.calls).toEqual([]);
  });

  it('kill signals the shell, sweeps the marked processes, then drops the stream', async () => {
    const envd = new MemoryEnvd();
    envd.push({ type: 'start', pid: 9 });
    const h = host(envd);
    const pty = await openE2bPty(h, req);
    const codes: (number | null)[] = [];
    pty.onExit((c) => codes.push(c));
    await pty.kill();
    await tick();
    expect(envd.calls).toEqual(['signal:9:SIGNAL_SIGKILL', 'exec:sess1', 'abort']);
    expect(h.execs[0]?.argv.slice(0, 2)).toEqual(['sh', '-c']);
    expect(codes).toEqual([null]);
  });

  it('kill fails with sandbox_error when processes remain, and still drops the stream', async () => {
    const envd = new MemoryEnvd();
    envd.push({ type: 'start', pid: 9 });
    const pty = await openE2bPty(host(envd, 3), req);
    await expect(pty.kill()).rejects.toMatchObject({ code: 'sandbox_error' });
    expect(envd.calls.at(-1)).toBe('abort');
  });

  it('takes a vanished process as no error, and passes other failures on', async () => {
    const envd = new MemoryEnvd();
    envd.push({ type: 'start', pid: 5 });
    const pty = await openE2bPty(host(envd), req);
    envd.fail = new AppError('sandbox_not_found', 'process not found');
    await expect(pty.write(Buffer.from('x'))).resolves.toBeUndefined();
    envd.fail = new AppError('sandbox_credentials_rejected', 'no');
    await expect(pty.resize(10, 10)).rejects.toMatchObject({ code: 'sandbox_credentials_rejected' });
  });

  it('fails when the stream ends before the shell started', async () => {
    const envd = new MemoryEnvd();
    envd.close();
    await expect(openE2bPty(host(envd), req)).rejects.toMatchObject({ code: 'sandbox_error' });
  });
});
