import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runProcess } from './process';

// 😀 is F0 9F 98 80 in UTF-8. The child writes its first two bytes, pauses, then the last two,
// so the pipe delivers the character in two chunks.
const SPLIT_WRITER = `
const fd = process.argv[1] === 'err' ? 2 : 1;
const bytes = Buffer.from('a😀b', 'utf8');
require('fs').writeSync(fd, bytes.subarray(0, 3));
setTimeout(() => require('fs').writeSync(fd, Buffer.concat([bytes.subarray(3), Buffer.from('\\nnext\\n')])), 150);
`;

function rawChunks(): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', SPLIT_WRITER, 'out'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('error', reject);
    child.on('close', () => resolve(chunks));
  });
}

describe('runProcess output decoding', () => {
  it('the child really splits the character across two chunks', async () => {
    const chunks = await rawChunks();
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks[0]).toEqual(Buffer.from([0x61, 0xf0, 0x9f]));
  });

  it.each(['out', 'err'] as const)('keeps a 4-byte character split at a chunk boundary intact (std%s)', async (which) => {
    const lines: string[] = [];
    const r = await runProcess(process.execPath, ['-e', SPLIT_WRITER, which], { onLine: (l) => lines.push(l) });
    expect(r.code).toBe(0);
    expect(which === 'out' ? r.stdout : r.stderr).toBe('a😀b\nnext\n');
    expect(lines).toEqual(['a😀b', 'next']);
    expect(r.stdout + r.stderr).not.toContain('\uFFFD');
  });

  it('an incomplete sequence at the end of the output becomes one replacement character', async () => {
    const lines: string[] = [];
    const r = await runProcess(process.execPath, ['-e', 'process.stdout.write(Buffer.from([0x6f, 0x6b, 0xf0, 0x9f]))'], { onLine: (l) => lines.push(l) });
    expect(r.stdout).toBe('ok\uFFFD');
    expect(lines).toEqual(['ok\uFFFD']);
  });
});

// A killed process whose parent has gone is a zombie until init reaps it: that counts as dead.
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('runProcess stopping and line caps', () => {
  it('a timeout kills a grandchild that holds the pipes after the direct child exited', async () => {
    const r = await runProcess('/bin/sh', ['-c', 'sleep 1000 & echo $!'], { timeoutMs: 300, killGraceMs: 200 });
    expect(r.timedOut).toBe(true);
    const pid = Number(r.stdout.trim());
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
  });

  it('a cancel kills a grandchild that holds the pipes after the direct child exited', async () => {
    const ac = new AbortController();
    const r = await runProcess('/bin/sh', ['-c', 'sleep 1000 & echo $!'], { signal: ac.signal, killGraceMs: 200, onLine: () => ac.abort() });
    expect(r.aborted).toBe(true);
    expect(alive(Number(r.stdout.trim()))).toBe(false);
  });

  it('caps an unterminated line and keeps the lines after it', async () => {
    const lines: string[] = [];
    const script = "process.stdout.write('x'.repeat(10 * 1024 * 1024)); process.stdout.write('\\nok\\n')";
    const r = await runProcess(process.execPath, ['-e', script], { onLine: (l) => lines.push(l), maxLineBytes: 4096 });
    expect(r.code).toBe(0);
    expect(lines).toHaveLength(2);
    expect(lines[0].length).toBeLessThanOrEqual(4096 + 64);
    expect(lines[0]).toMatch(/^x{4096}.*truncated/);
    expect(lines[1]).toBe('ok');
  });

  it('caps a 10 MiB line with no newline at all (default cap)', async () => {
    const lines: string[] = [];
    const r = await runProcess(process.execPath, ['-e', "process.stdout.write('y'.repeat(10 * 1024 * 1024))"], { onLine: (l) => lines.push(l) });
    expect(r.code).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0].length).toBeLessThanOrEqual(64 * 1024 + 64);
  });
});

describe('runProcess environment', () => {
  const SECRETS = ['NEXTAUTH_SECRET', 'SKILLDOCK_SESSION_SECRET', 'SKILLDOCK_SECRET_KEY'];
  const PRINT_ENV = 'process.stdout.write(JSON.stringify(process.env))';

  it('a child sees none of the server secrets nor its other variables, even when they are set in the parent', async () => {
    const saved = Object.fromEntries([...SECRETS, 'SKILLDOCK_SOME_SETTING'].map((k) => [k, process.env[k]]));
    for (const k of SECRETS) process.env[k] = `secret-${k}-${'x'.repeat(40)}`;
    process.env.SKILLDOCK_SOME_SETTING = 'server-only';
    try {
      const plain = JSON.parse((await runProcess(process.execPath, ['-e', PRINT_ENV])).stdout) as Record<string, string>;
      const spread = JSON.parse((await runProcess(process.execPath, ['-e', PRINT_ENV], { env: { ...process.env, EXTRA: '1' } })).stdout) as Record<
        string,
        string
      >;
      for (const env of [plain, spread]) for (const k of SECRETS) expect(env, k).not.toHaveProperty(k);
      expect(plain).not.toHaveProperty('SKILLDOCK_SOME_SETTING');
      expect(plain.HOME).toBe(process.env.HOME);
      expect(plain.PATH.split(':').some((d) => d.includes('node_modules'))).toBe(false);
      expect(spread.EXTRA).toBe('1');
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });
});
