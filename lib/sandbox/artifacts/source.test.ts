// The entry policy over a hand-made hostile archive: names that climb out or hold control
// characters, links and devices, a header that lies about its size, and the caps.
import { Readable } from 'node:stream';
import { Header } from 'tar';
import { describe, expect, it } from 'vitest';
import { account, admit, intakeNote, newIntake, normaliseName, skip } from './intake';
import { artifactLimits } from './limits';
import { contentDisposition } from './query';
import { tarEntries } from './source';

type Spec = { path: string; type?: string; body?: Buffer; size?: number; linkpath?: string };

function tar(entries: Spec[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    const body = e.body ?? Buffer.alloc(0);
    const h = new Header({
      path: e.path,
      type: (e.type ?? 'File') as never,
      size: e.size ?? body.length,
      mode: 0o644,
      mtime: new Date(0),
      linkpath: e.linkpath,
    });
    const hb = Buffer.alloc(512);
    h.encode(hb);
    parts.push(hb, body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

async function read(buf: Buffer) {
  const out: { rel: string | null; kind: string; data?: string }[] = [];
  for await (const e of tarEntries(Readable.from([buf]), 'output', AbortSignal.timeout(5000))) {
    let data: string | undefined;
    if (e.body && e.rel?.startsWith('keep')) {
      const chunks: Buffer[] = [];
      for await (const c of await e.body()) chunks.push(Buffer.from(c));
      data = Buffer.concat(chunks).toString();
    }
    out.push({ rel: e.rel, kind: e.kind, ...(data === undefined ? {} : { data }) });
  }
  return out;
}

describe('artifact entry policy', () => {
  it('normalises names and refuses those that climb out or hold control characters', () => {
    expect(normaliseName('a/./b//c.txt')).toBe('a/b/c.txt');
    expect(normaliseName('./x')).toBe('x');
    expect(normaliseName('../etc/passwd')).toBeNull();
    expect(normaliseName('a/../../b')).toBeNull();
    expect(normaliseName('/etc/passwd')).toBeNull();
    expect(normaliseName('bad\nname')).toBeNull();
    expect(normaliseName('bad\u0000name')).toBeNull();
    expect(normaliseName(`${'a'.repeat(256)}.txt`)).toBeNull();
    expect(normaliseName('')).toBeNull();
  });

  it('reads a hostile archive entry by entry: files with their bytes, everything else reported', async () => {
    const got = await read(
      tar([
        { path: 'output/', type: 'Directory' },
        { path: 'output/keep.txt', body: Buffer.from('kept bytes') },
        { path: 'output/skipped.bin', body: Buffer.alloc(3000, 7) },
        { path: 'output/link', type: 'SymbolicLink', linkpath: '/etc/passwd' },
        { path: 'output/hard', type: 'Link', linkpath: 'etc/passwd' },
        { path: 'output/tty', type: 'CharacterDevice' },
        { path: 'output/../escape.txt', body: Buffer.from('x') },
        { path: 'elsewhere/file.txt', body: Buffer.from('y') },
        { path: 'output/sub/keep2.txt', body: Buffer.from('second') },
      ]),
    );
    expect(got).toEqual([
      { rel: 'keep.txt', kind: 'file', data: 'kept bytes' },
      { rel: 'skipped.bin', kind: 'file' },
      { rel: 'link', kind: 'symlink' },
      { rel: 'hard', kind: 'hardlink' },
      { rel: 'tty', kind: 'device' },
      { rel: null, kind: 'file' },
      { rel: null, kind: 'file' },
      { rel: 'sub/keep2.txt', kind: 'file' },
    ]);
  });

  it('reports the folder itself when a symlink stands in for it', async () => {
    expect(await read(tar([{ path: 'output', type: 'SymbolicLink', linkpath: '/etc' }]))).toEqual([{ rel: null, kind: 'symlink' }]);
  });

  it('fails on a truncated archive rather than keeping part of a file as whole', async () => {
    const whole = tar([{ path: 'output/keep.bin', body: Buffer.alloc(4096, 1) }]);
    await expect(read(whole.subarray(0, 1024))).rejects.toThrow();
  });

  it('caps files and bytes and says what was cut', () => {
    const t = newIntake(artifactLimits({ maxFiles: 2, maxBytes: 100, maxEntries: 6 }));
    const take = (rel: string, size: number) => (account(t, size) ? admit(t, rel, size) : 'stopped');
    expect(take('a', 40)).toBeNull();
    expect(take('a', 1)).toBe('duplicate');
    expect(take('b', 101)).toBe('too_large');
    expect(take('c', 70)).toBe('byte_cap');
    expect(take('d', 10)).toBeNull();
    expect(take('e', 1)).toBe('file_cap');
    expect(take('f', 1)).toBe('stopped');
    skip(t, 'symlink');
    expect({ files: t.files, bytes: t.bytes }).toEqual({ files: 2, bytes: 50 });
    expect(intakeNote(t)).toBe(
      'Left out: 1 duplicate name(s); 1 file(s) larger than the whole collection cap; 1 file(s) past the byte cap; 1 file(s) past the file-count cap; 1 symbolic link(s), not followed; reading stopped early (more than 6 entries), so later files were not looked at (caps: 2 files, 100 bytes).',
    );
    expect(intakeNote(newIntake(artifactLimits()))).toBeNull();
  });

  it('names a download safely', () => {
    expect(contentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(contentDisposition('a"b;\r\nc.txt')).toBe(`attachment; filename="a_b___c.txt"; filename*=UTF-8''a%22b%3B%0D%0Ac.txt`);
    expect(contentDisposition('..')).toBe(`attachment; filename="_"; filename*=UTF-8''..`);
    expect(contentDisposition('résumé (1).txt')).toBe(`attachment; filename="r_sum_ _1_.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29.txt`);
  });
});
