/**
 * The hostile archive corpus: one case per protection, each failing
 * with its exact AppError code, removing the staging folder and writing nothing beside it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppError, ERROR_STATUS, type ErrorCode, isAppError } from '@/lib/core/errors';
import { listTree } from '../../archive/archive.fixtures';
import { buildTar, buildZip, gzip, SKILL_MD, type TarSpec, type ZipSpec } from './archive-corpus.fixtures';
import { extractSkillArchive, type SkillArchiveLimits } from './extract';

const MiB = 1024 * 1024;
let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-hostile-'));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

let n = 0;
function save(bytes: Buffer, ext: string): string {
  const file = path.join(work, `archive-${++n}.${ext}`);
  fs.writeFileSync(file, bytes);
  return file;
}
const tgz = (entries: TarSpec[]) => save(gzip(buildTar(entries)), 'tar.gz');
const tar = (entries: TarSpec[]) => save(buildTar(entries), 'tar');
const zip = (entries: ZipSpec[]) => save(buildZip(entries), 'zip');

/** Staging is <sandbox>/inner/staging, so even `../../x` would land inside the watched sandbox. */
async function expectRejected(file: string, code: ErrorCode, message?: RegExp, limits: SkillArchiveLimits = {}): Promise<AppError> {
  const sandbox = fs.mkdtempSync(path.join(work, 'sandbox-'));
  fs.mkdirSync(path.join(sandbox, 'inner'));
  fs.writeFileSync(path.join(sandbox, 'inner', 'marker.txt'), 'untouched');
  const staging = path.join(sandbox, 'inner', 'staging');
  const before = listTree(sandbox);
  const err = await extractSkillArchive(file, staging, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(isAppError(err), `expected a AppError, got ${String(err)}`).toBe(true);
  const e = err as AppError;
  expect(e.code).toBe(code);
  expect(e.status).toBe(ERROR_STATUS[code]);
  if (message) expect(e.message).toMatch(message);
  expect(fs.existsSync(staging)).toBe(false);
  expect(listTree(sandbox)).toEqual(before);
  expect(fs.readFileSync(path.join(sandbox, 'inner', 'marker.txt'), 'utf8')).toBe('untouched');
  return e;
}

// Good entries first, the hostile one last: the whole extraction must still fail and be undone.
const goodTar: TarSpec[] = [
  { name: 'SKILL.md', data: SKILL_MD },
  { name: 'scripts/', type: 'dir' },
  { name: 'scripts/run.sh', data: 'echo hi\n', mode: 0o755 },
];
const goodZip: ZipSpec[] = [{ name: 'SKILL.md', data: SKILL_MD }, { name: 'scripts/' }, { name: 'scripts/run.sh', data: 'echo hi\n', unixMode: 0o100755 }];
const evilTar = (name: string | Buffer, extra: Partial<TarSpec> = {}) => tgz([...goodTar, { name, data: 'pwned', ...extra }]);
const evilZip = (name: string | Buffer, extra: Partial<ZipSpec> = {}) => zip([...goodZip, { name, data: 'pwned', ...extra }]);

describe('entry names', () => {
  const names: [string, string | Buffer, RegExp][] = [
    ['absolute path', '/tmp/skilldock-abs-evil', /absolute/],
    ['// path', '//skilldock-unc/share/evil', /absolute/],
    ['leading ../', '../evil', /'\.\.'/],
    ['leading ../../', '../../evil', /'\.\.'/],
    ['middle .. segment', 'scripts/../../evil', /'\.\.'/],
    ['harmless-looking middle ..', 'scripts/../SKILL2.md', /'\.\.'/],
    ['drive letter', 'C:/evil', /drive letter/],
    // yauzl turns zip backslashes into slashes; tar keeps them and the policy refuses them
    ['backslash traversal', '..\\..\\evil', /backslash|'\.\.'/],
    ['component over 255 bytes', `${'a'.repeat(256)}/x.md`, /255 bytes/],
    ['multi-byte component over 255 bytes', `${'é'.repeat(128)}.md`, /255 bytes/],
    ['more than 256 components', `${Array(257).fill('d').join('/')}.md`, /path components/],
  ];
  it.each(names)('%s in a tar.gz', async (_label, name, message) => {
    await expectRejected(evilTar(name), 'unsafe_archive', message);
    expect(fs.existsSync('/tmp/skilldock-abs-evil')).toBe(false);
  });
  it.each(names)('%s in a zip', async (_label, name, message) => {
    await expectRejected(evilZip(name), 'unsafe_archive', message);
    expect(fs.existsSync('/tmp/skilldock-abs-evil')).toBe(false);
  });
  it('NUL in a zip name', async () => {
    await expectRejected(evilZip(Buffer.from('notes.md\0.sh', 'latin1')), 'unsafe_archive', /NUL/);
  });
  it('NUL in a tar name (PAX path record) ends the name there, as in C: nothing past it is ever used', async () => {
    // node-tar cuts PAX values at the first NUL; the cut name then goes through the same checks
    const staging = path.join(fs.mkdtempSync(path.join(work, 'nul-')), 'staging');
    await extractSkillArchive(tgz([...goodTar, { name: Buffer.from('notes.md\0/../../evil.sh', 'latin1'), data: 'x' }]), staging);
    expect(listTree(staging)).toEqual(['SKILL.md', 'notes.md', 'scripts', 'scripts/run.sh']);
    await expectRejected(evilTar(Buffer.from('../evil\0notes.md', 'latin1')), 'unsafe_archive', /'\.\.'/);
  });
  it('a lowered component cap applies', async () => {
    await expectRejected(evilTar('a/b/c/d/e.md'), 'unsafe_archive', /more than 4 path components/, { maxPathComponents: 4 });
  });
});

describe('collisions and integrity', () => {
  it.each([
    ['case collision', 'scripts/Run.sh', /collide/],
    ['NFC/NFD collision', 'scripts/run\u0301.sh', null],
    ['duplicate name', 'scripts/run.sh', /appears twice/],
  ] as const)('%s (tar.gz and zip)', async (label, name, message) => {
    const base = label === 'NFC/NFD collision' ? 'scripts/r\u00fcn.sh' : 'scripts/run.sh';
    const other = label === 'NFC/NFD collision' ? 'scripts/ru\u0308n.sh' : name;
    const t = tgz([
      { name: 'SKILL.md', data: SKILL_MD },
      { name: base, data: 'a' },
      { name: other, data: 'b' },
    ]);
    const z = zip([
      { name: 'SKILL.md', data: SKILL_MD },
      { name: base, data: 'a' },
      { name: other, data: 'b' },
    ]);
    for (const file of [t, z]) await expectRejected(file, 'unsafe_archive', message ?? /collide/);
  });
  it('zip central/local name mismatch', async () => {
    await expectRejected(zip([...goodZip, { name: 'notes.md', localName: '../evil.md', data: 'x' }]), 'unsafe_archive', /local header/);
  });
  it('zip CRC mismatch', async () => {
    await expectRejected(zip([...goodZip, { name: 'notes.md', data: 'some text', crc: 0xdeadbeef }]), 'unsafe_archive', /CRC/);
  });
  it('zip truncated after its first entry', async () => {
    const bytes = buildZip(goodZip);
    await expectRejected(save(bytes.subarray(0, bytes.length - 30), 'zip'), 'unsafe_archive', /corrupt/);
  });
  it('tar.gz truncated in the middle of an entry', async () => {
    const raw = buildTar([...goodTar, { name: 'big.bin', data: randomBytes(64 * 1024) }]);
    await expectRejected(save(gzip(raw.subarray(0, 40 * 1024)), 'tar.gz'), 'unsafe_archive');
  });
});

describe('links and special files', () => {
  it('zip symlink', async () => {
    await expectRejected(evilZip('link', { data: '/etc/passwd', unixMode: 0o120777 }), 'unsafe_archive', /"link" is a symbolic link/);
  });
  it('tar symlink', async () => {
    await expectRejected(evilTar('link', { type: 'symlink', linkname: '/etc/passwd' }), 'unsafe_archive', /"link" is a symbolic link/);
  });
  it('tar hardlink, even to a file inside the archive', async () => {
    await expectRejected(evilTar('copy.md', { type: 'hardlink', linkname: 'SKILL.md' }), 'unsafe_archive', /"copy.md" is a hard link/);
  });
  it.each([
    ['char', /character device/],
    ['block', /block device/],
    ['fifo', /FIFO/],
  ] as const)('tar %s entry', async (type, message) => {
    await expectRejected(evilTar('dev', { type }), 'unsafe_archive', message);
  });
  it('zip FIFO entry', async () => {
    await expectRejected(evilZip('pipe', { unixMode: 0o010644 }), 'unsafe_archive', /FIFO/);
  });
  it('a symlink to an outside folder followed by a file under it writes nothing outside', async () => {
    const outside = fs.mkdtempSync(path.join(work, 'outside-'));
    await expectRejected(
      tgz([
        { name: 'escape', type: 'symlink', linkname: outside },
        { name: 'escape/evil', data: 'x' },
      ]),
      'unsafe_archive',
      /symbolic link/,
    );
    expect(fs.readdirSync(outside)).toEqual([]);
  });
});

describe('sizes, counts and bombs', () => {
  it('too many entries (zip, default 50,000 limit, refused from the end record)', async () => {
    const many: ZipSpec[] = Array.from({ length: 50_001 }, (_, i) => ({ name: `f/${i}`, method: 'store' }));
    await expectRejected(zip(many), 'archive_too_large', /50001 entries, more than 50000/);
  });
  it('too many entries (tar.gz, lowered limit)', async () => {
    const many: TarSpec[] = Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.md`, data: 'x' }));
    await expectRejected(tgz([{ name: 'SKILL.md', data: SKILL_MD }, ...many]), 'archive_too_large', /more than 10 entries/, { maxEntries: 10 });
  });
  it('entry too large (tar.gz)', async () => {
    await expectRejected(evilTar('big.bin', { data: randomBytes(MiB + 1) }), 'archive_too_large', /over the 1048576 byte limit/, { maxEntryBytes: MiB });
  });
  it('entry too large by its declared size (zip, default limits: refused before inflating)', async () => {
    await expectRejected(evilZip('big.bin', { data: 'tiny', declaredSize: 300 * MiB }), 'archive_too_large', /declares 314572800 bytes/);
  });
  it('total too large', async () => {
    const files: TarSpec[] = [0, 1, 2].map((i) => ({ name: `part${i}.bin`, data: randomBytes(400 * 1024) }));
    await expectRejected(tgz([{ name: 'SKILL.md', data: SKILL_MD }, ...files]), 'archive_too_large', /exceed the 1048576 byte limit/, { maxTotalBytes: MiB });
  });
  it('archive file over the archive size limit', async () => {
    await expectRejected(tgz(goodTar), 'archive_too_large', /over the 100 byte limit/, { maxArchiveBytes: 100 });
  });
  it('gzip bomb: a few KiB of tar.gz declaring 8 MiB of zeros', async () => {
    const file = tgz([
      { name: 'SKILL.md', data: SKILL_MD },
      { name: 'zeros.bin', data: Buffer.alloc(8 * MiB) },
    ]);
    expect(fs.statSync(file).size).toBeLessThan(16 * 1024);
    await expectRejected(file, 'archive_too_large', /compression bomb/);
  });
  it('gzip bomb spread over many small entries trips the running ratio', async () => {
    const parts: TarSpec[] = Array.from({ length: 40 }, (_, i) => ({ name: `z${i}.bin`, data: Buffer.alloc(64 * 1024) }));
    await expectRejected(tgz([{ name: 'SKILL.md', data: SKILL_MD }, ...parts]), 'archive_too_large', /compression bomb/);
  });
  it('zip of zeros (honest sizes): refused from the central directory', async () => {
    await expectRejected(evilZip('zeros.bin', { data: Buffer.alloc(8 * MiB) }), 'archive_too_large', /compression bomb/);
  });
  it('zip of zeros that lies about its size: stopped while inflating', async () => {
    const zeros = Buffer.alloc(8 * MiB);
    await expectRejected(evilZip('zeros.bin', { data: zeros, declaredSize: 1000 }), 'archive_too_large', /beyond its declared size of 1000/);
  });
});

describe('format and layout', () => {
  it('encrypted zip entry', async () => {
    await expectRejected(evilZip('secret.md', { flags: 1 }), 'encrypted_archive', /"secret.md" is encrypted/);
  });
  it.each([
    ['xz', Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), Buffer.alloc(64)])],
    ['7z', Buffer.concat([Buffer.from('377abcaf271c', 'hex'), Buffer.alloc(64)])],
    ['gzip of plain text', gzip(Buffer.from('just text, not a tar archive\n'.repeat(40)))],
    ['plain text', Buffer.from('# SKILL.md pretending to be an archive\n')],
    ['ELF', fs.readFileSync('/bin/true')],
  ] as const)('unsupported format: %s', async (_label, bytes) => {
    await expectRejected(save(bytes, 'bin'), 'unsupported_format', /zip, tar\.gz or tar/);
  });
  it('no SKILL.md anywhere', async () => {
    await expectRejected(
      tgz([
        { name: 'README.md', data: '# readme' },
        { name: 'run.sh', data: 'x' },
      ]),
      'missing_skill_md',
      /^archive is missing SKILL\.md$/,
    );
  });
  it('SKILL.md nested two levels deep', async () => {
    await expectRejected(zip([{ name: 'a/b/SKILL.md', data: SKILL_MD }]), 'missing_skill_md', /archive is missing SKILL\.md/);
  });
  it('two top folders, each with SKILL.md', async () => {
    await expectRejected(
      tar([
        { name: 'one/SKILL.md', data: SKILL_MD },
        { name: 'two/SKILL.md', data: SKILL_MD },
      ]),
      'missing_skill_md',
    );
  });
  it('SKILL.md as a folder', async () => {
    await expectRejected(
      tgz([
        { name: 'SKILL.md/', type: 'dir' },
        { name: 'SKILL.md/x', data: 'x' },
      ]),
      'missing_skill_md',
    );
  });
});
