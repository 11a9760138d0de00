import { spawn } from 'node:child_process';
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
