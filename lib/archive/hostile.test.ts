/**
 * Hostile archives: each must fail (or skip) exactly as specified and leave
 * nothing behind — neither in destDir nor next to it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/core/errors';
import { type ExtractOptions, extractArchive } from './archive';
import { type CraftEntry, cleanupTmp, compress, craftTar, craftZip, listTree, run, tmpDir } from './archive.fixtures';

afterAll(cleanupTmp);

const MiB = 1024 * 1024;

/** Extract into `<sandbox>/dest` (an existing empty dir); returns the sandbox to inspect. */
async function expectFailure(file: string, code: string, opts: ExtractOptions = {}, messagePart?: RegExp) {
  const sandbox = tmpDir('skilldock-sandbox-');
  const dest = path.join(sandbox, 'dest');
  fs.mkdirSync(dest);
  let err: unknown;
  try {
    await extractArchive(file, dest, opts);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  // too much content is 413 (like an oversized upload); every other refusal of the content is 422
  expect((err as AppError).status).toBe(code === 'archive_too_large' ? 413 : 422);
  if (messagePart) expect((err as Error).message).toMatch(messagePart);
  expect(listTree(dest)).toEqual([]);
  expect(listTree(sandbox)).toEqual(['dest']);
  return sandbox;
}

const good: CraftEntry[] = [
  { name: 'tool-1.0/', type: 'dir', mode: 0o755 },
  { name: 'tool-1.0/README.md', data: 'readme' },
  { name: 'tool-1.0/tool', data: '#!/bin/sh\n', mode: 0o755 },
];

describe('unsafe names fail the whole extraction', () => {
  it.each([
    ['../evil', 'tar'],
    ['tool-1.0/../../evil', 'tar'],
    ['/tmp/skilldock-abs-evil', 'tar'],
    ['C:/evil', 'tar'],
    ['tool-1.0\\..\\..\\evil', 'tar'],
    ['../evil', 'zip'],
    ['/tmp/skilldock-abs-evil', 'zip'],
    ['C:\\evil', 'zip'],
    ['tool-1.0\\..\\..\\evil', 'zip'],
  ] as const)('%j in a %s (written after good entries)', async (name, kind) => {
    const dir = tmpDir();
    const entries = [...good, { name, data: 'pwned' }];
    const file = kind === 'tar' ? await craftTar(path.join(dir, 'x.tar.gz'), entries, { gzip: true }) : await craftZip(path.join(dir, 'x.zip'), entries);
    const sandbox = await expectFailure(file, 'unsafe_archive');
    expect(fs.existsSync(path.join(sandbox, 'evil'))).toBe(false);
    expect(fs.existsSync('/tmp/skilldock-abs-evil')).toBe(false);
  });

  it('a hardlink or symlink name with .. is rejected too', async () => {
    const file = await craftTar(path.join(tmpDir(), 'x.tar'), [...good, { name: '../link', type: 'sym', link: 'tool-1.0/tool' }]);
    await expectFailure(file, 'unsafe_archive', {}, /'\.\.'/);
  });

  it('a file under a symlinked directory name cannot be written through the link', async () => {
    const outside = tmpDir('skilldock-outside-');
    const file = await craftTar(path.join(tmpDir(), 'x.tar'), [
      { name: 'escape', type: 'sym', link: outside },
      { name: 'escape/evil', data: 'pwned' },
    ]);
    await expectFailure(file, 'unsafe_archive', {}, /escape/);
    expect(listTree(outside)).toEqual([]);
  });

  it.each([
    ['Tool', 'tool', 'tar'],
    ['caf\u00e9', 'cafe\u0301', 'tar'],
    ['README', 'readme', 'zip'],
    ['caf\u00e9', 'cafe\u0301', 'zip'],
    ['same', 'same', 'tar'],
  ] as const)('%j and %j collide (%s)', async (a, b, kind) => {
    const dir = tmpDir();
    const entries = [...good, { name: `tool-1.0/${a}`, data: 'one' }, { name: `tool-1.0/${b}`, data: 'two' }];
    const file = kind === 'tar' ? await craftTar(path.join(dir, 'x.tar'), entries) : await craftZip(path.join(dir, 'x.zip'), entries);
    await expectFailure(file, 'unsafe_archive', {}, /collide|twice/);
  });

  it('directories differing only by case collide', async () => {
    const file = await craftTar(path.join(tmpDir(), 'x.tar'), [
      { name: 'Bin/a', data: '1' },
      { name: 'bin/b', data: '2' },
    ]);
    await expectFailure(file, 'unsafe_archive', {}, /collide/);
  });
});

describe('links and special files', () => {
  it('records a symlink to /etc/passwd and a hardlink without creating either', async () => {
    const file = await craftTar(
      path.join(tmpDir(), 'x.tar.gz'),
      [
        ...good,
        { name: 'tool-1.0/passwd', type: 'sym', link: '/etc/passwd' },
        { name: 'tool-1.0/bin/tool-hard', type: 'hard', link: 'tool-1.0/tool' },
        { name: 'tool-1.0/tool-rel', type: 'sym', link: 'tool' },
      ],
      { gzip: true },
    );
    const dest = path.join(tmpDir(), 'dest');
    const r = await extractArchive(file, dest);
    const m = new Map(r.entries.map((e) => [e.path, e]));
    expect(m.get('tool-1.0/passwd')).toMatchObject({ type: 'symlink', linkTarget: '/etc/passwd' });
    expect(m.get('tool-1.0/bin/tool-hard')).toMatchObject({ type: 'symlink', hardlink: true, linkTarget: '../tool' });
    expect(m.get('tool-1.0/tool-rel')).toMatchObject({ type: 'symlink', linkTarget: 'tool' });
    for (const p of ['tool-1.0/passwd', 'tool-1.0/bin/tool-hard', 'tool-1.0/tool-rel']) {
      expect(() => fs.lstatSync(path.join(dest, p))).toThrow(/ENOENT/);
    }
    expect(fs.readFileSync(path.join(dest, 'tool-1.0/tool'), 'utf8')).toBe('#!/bin/sh\n');
  });

  it('records a zip symlink (S_IFLNK) without creating it', async () => {
    const file = await craftZip(path.join(tmpDir(), 'x.zip'), [...good, { name: 'tool-1.0/passwd', mode: 0o120777, data: '/etc/passwd' }]);
    const dest = path.join(tmpDir(), 'dest');
    const r = await extractArchive(file, dest);
    expect(r.entries.find((e) => e.path === 'tool-1.0/passwd')).toMatchObject({ type: 'symlink', linkTarget: '/etc/passwd' });
    expect(() => fs.lstatSync(path.join(dest, 'tool-1.0/passwd'))).toThrow(/ENOENT/);
  });

  it('skips device and FIFO entries and lists them', async () => {
    const file = await craftTar(path.join(tmpDir(), 'x.tar'), [
      ...good,
      { name: 'tool-1.0/dev/null2', type: 'chr' },
      { name: 'tool-1.0/dev/sda9', type: 'blk' },
      { name: 'tool-1.0/pipe', type: 'fifo' },
    ]);
    const dest = path.join(tmpDir(), 'dest');
    const r = await extractArchive(file, dest);
    expect(r.skipped.map((s) => s.path).sort()).toEqual(['tool-1.0/dev/null2', 'tool-1.0/dev/sda9', 'tool-1.0/pipe']);
    expect(r.skipped.find((s) => s.path === 'tool-1.0/pipe')?.reason).toMatch(/FIFO/);
    expect(r.entries.filter((e) => e.type === 'other')).toHaveLength(3);
    expect(fs.existsSync(path.join(dest, 'tool-1.0/pipe'))).toBe(false);
    expect(fs.existsSync(path.join(dest, 'tool-1.0/dev/null2'))).toBe(false);
    expect(fs.existsSync(path.join(dest, 'tool-1.0/README.md'))).toBe(true);
  });

  it('skips a zip FIFO entry', async () => {
    const file = await craftZip(path.join(tmpDir(), 'x.zip'), [...good, { name: 'tool-1.0/pipe', mode: 0o010644 }]);
    const dest = path.join(tmpDir(), 'dest');
    const r = await extractArchive(file, dest);
    expect(r.skipped).toEqual([{ path: 'tool-1.0/pipe', reason: expect.stringMatching(/FIFO/) }]);
    expect(fs.existsSync(path.join(dest, 'tool-1.0/pipe'))).toBe(false);
  });

  it('clamps setuid and odd modes to 0755 / 0644', async () => {
    const entries = [
      { name: 'suid', data: 'x', mode: 0o4777 },
      { name: 'private', data: 'x', mode: 0o600 },
      { name: 'world', data: 'x', mode: 0o666 },
      { name: 'grpx', data: 'x', mode: 0o610 },
    ];
    for (const kind of ['tar', 'zip'] as const) {
      const dir = tmpDir();
      const file =
        kind === 'tar'
          ? await craftTar(path.join(dir, 'x.tar'), entries)
          : await craftZip(
              path.join(dir, 'x.zip'),
              entries.map((e) => ({ ...e, mode: 0o100000 | e.mode })),
            );
      const dest = path.join(tmpDir(), 'dest');
      await extractArchive(file, dest);
      const modes = Object.fromEntries(entries.map((e) => [e.name, fs.statSync(path.join(dest, e.name)).mode & 0o7777]));
      expect(modes, kind).toEqual({ suid: 0o755, private: 0o644, world: 0o644, grpx: 0o755 });
    }
  });
});

describe('caps', () => {
  it('10,001 tar entries exceed the default entry cap', async () => {
    const file = await craftTar(path.join(tmpDir(), 'many.tar.gz'), [], { gzip: true, many: 10_001 });
    await expectFailure(file, 'archive_too_large', {}, /10000 entries/);
  }, 60_000);

  it('exactly 10,000 tar entries are accepted', async () => {
    const file = await craftTar(path.join(tmpDir(), 'many.tar.gz'), [], { gzip: true, many: 9_999 }); // + the many/ dir is implicit
    const dest = path.join(tmpDir(), 'dest');
    const r = await extractArchive(file, dest);
    expect(r.entries).toHaveLength(9_999);
  }, 60_000);

  it('10,001 zip entries are refused from the central directory, before anything is written', async () => {
    const file = await craftZip(path.join(tmpDir(), 'many.zip'), [], { many: 10_001 });
    await expectFailure(file, 'archive_too_large', {}, /10001 entries/);
  }, 60_000);

  it('a zip bomb is refused from its declared sizes', async () => {
    const file = await craftZip(path.join(tmpDir(), 'bomb.zip'), [{ name: 'zeros', zeros: 64 * MiB }]);
    expect(fs.statSync(file).size).toBeLessThan(MiB);
    await expectFailure(file, 'archive_too_large', { maxTotalBytes: 8 * MiB }, /limit/);
  });

  it('a zip whose central directory lies about sizes is stopped by the byte counter', async () => {
    const file = await craftZip(path.join(tmpDir(), 'liar.zip'), [{ name: 'zeros', zeros: 64 * MiB }], { lie: 1000 });
    await expectFailure(file, 'archive_too_large', { maxTotalBytes: 8 * MiB }, /declared size of 1000/);
  });

  it('a zip whose sizes are under-declared but within the cap is still refused', async () => {
    const file = await craftZip(path.join(tmpDir(), 'liar.zip'), [{ name: 'a', data: 'x'.repeat(5000) }], { lie: 100 });
    await expectFailure(file, 'archive_too_large', {}, /declared size/);
  });

  it('a tar.gz bomb is refused from its header sizes', async () => {
    const file = await craftTar(path.join(tmpDir(), 'bomb.tar.gz'), [{ name: 'zeros', zeros: 32 * MiB }], { gzip: true });
    await expectFailure(file, 'archive_too_large', { maxTotalBytes: 4 * MiB }, /limit/);
  });

  it('the total cap applies across entries that are each under the entry cap', async () => {
    const entries = ['a', 'b', 'c'].map((name) => ({ name, zeros: MiB }));
    const dir = tmpDir();
    for (const file of [await craftTar(path.join(dir, 'x.tar.gz'), entries, { gzip: true }), await craftZip(path.join(dir, 'x.zip'), entries)]) {
      await expectFailure(file, 'archive_too_large', { maxTotalBytes: 2.5 * MiB, maxEntryBytes: 2 * MiB }, /contents exceed the 2621440 byte limit/);
    }
  });

  it('maxEntryBytes caps a single entry', async () => {
    const file = await craftTar(path.join(tmpDir(), 'big.tar'), [
      { name: 'small', data: 'x' },
      { name: 'big', zeros: 2 * MiB },
    ]);
    await expectFailure(file, 'archive_too_large', { maxEntryBytes: MiB }, /big/);
  });

  it('a single .gz bomb is stopped by the running counter', async () => {
    const raw = path.join(tmpDir(), 'zeros');
    fs.writeFileSync(raw, Buffer.alloc(32 * MiB));
    const file = await compress('gzip', raw);
    await expectFailure(file, 'archive_too_large', { maxTotalBytes: 4 * MiB }, /larger than 4194304 bytes/);
    await expectFailure(file, 'archive_too_large', { maxTotalBytes: 64 * MiB, maxEntryBytes: 2 * MiB }, /larger than 2097152 bytes/);
  });

  it('a zstd frame declaring a huge window is refused before allocation', async () => {
    const file = path.join(tmpDir(), 'huge.zst');
    // magic, frame header descriptor 0 (window descriptor follows), window descriptor 2^41, then junk
    fs.writeFileSync(file, Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xf8]), Buffer.alloc(64, 1)]));
    await expectFailure(file, 'unsafe_archive', {}, /window/);
  });
});

describe('cancellation', () => {
  it('an already aborted signal extracts nothing', async () => {
    const file = await craftTar(path.join(tmpDir(), 'x.tar'), good);
    const dest = path.join(tmpDir(), 'dest');
    await expect(extractArchive(file, dest, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(fs.existsSync(dest)).toBe(false);
  });

  it('aborting mid-extraction stops and removes what was written', async () => {
    const raw = path.join(tmpDir(), 'big');
    fs.writeFileSync(raw, Buffer.alloc(256 * MiB));
    const tarFile = path.join(path.dirname(raw), 'big.tar');
    await run('tar', ['-cf', tarFile, '-C', path.dirname(raw), 'big']);
    fs.rmSync(raw);
    const file = await compress('gzip', tarFile);
    const dest = path.join(tmpDir(), 'dest');
    const ac = new AbortController();
    const timer = setInterval(() => {
      if (fs.existsSync(path.join(dest, 'big'))) ac.abort();
    }, 1);
    try {
      await expect(extractArchive(file, dest, { signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      clearInterval(timer);
    }
    expect(ac.signal.aborted).toBe(true);
    expect(fs.existsSync(dest)).toBe(false);
  }, 60_000);
});
