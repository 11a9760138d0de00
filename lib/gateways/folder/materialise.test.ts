import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasCode } from '@/lib/core/errors';
import { MARKER_FILE, type SkillFolder } from '../access';
import { folderSignature, signatureOf } from './manifest';
import {
  commitStaged,
  folderDigest,
  listManagedFolders,
  putSkillFolder,
  readMarker,
  recoverLeftovers,
  removeSkillFolder,
  type StagedFolder,
  stageSkillFolder,
} from './materialise';
import { makeDurable } from './stage';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-folder-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function folder(name: string, files: Record<string, string>, exec: string[] = []): SkillFolder {
  const list = Object.entries(files).map(([p, text]) => ({ path: p, mode: exec.includes(p) ? 0o755 : 0o644, data: Buffer.from(text) }));
  return { name, digest: folderDigest(list), files: list };
}

const read = (...p: string[]) => fs.readFileSync(path.join(root, ...p), 'utf8');

async function rejectsWith(p: Promise<unknown>, code: 'validation' | 'conflict'): Promise<void> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(hasCode(e, code), String(e)).toBe(true);
}

describe('folderDigest', () => {
  it('is the same for the same content in any order, and differs on path, mode or bytes', () => {
    const a = { path: 'a.md', mode: 0o644, data: Buffer.from('x') };
    const b = { path: 'b/c.sh', mode: 0o755, data: Buffer.from('y') };
    expect(folderDigest([a, b])).toBe(folderDigest([b, a]));
    expect(folderDigest([a, b])).not.toBe(folderDigest([a, { ...b, mode: 0o644 }]));
    expect(folderDigest([a, b])).not.toBe(folderDigest([a, { ...b, path: 'b/d.sh' }]));
    expect(folderDigest([a, b])).not.toBe(folderDigest([a, { ...b, data: Buffer.from('z') }]));
    // Length prefixes: moving a byte from one field to the next changes the digest.
    expect(folderDigest([{ path: 'ab', mode: 0o644, data: Buffer.from('') }])).not.toBe(folderDigest([{ path: 'a', mode: 0o644, data: Buffer.from('b') }]));
  });
});

describe('putSkillFolder', () => {
  it('writes files, modes and the marker, then skips the same digest and replaces a new one whole', async () => {
    const v1 = folder('pdf-tools', { 'SKILL.md': 'v1', 'scripts/run.sh': '#!/bin/sh\n', 'old.txt': 'gone later' }, ['scripts/run.sh']);
    expect(await putSkillFolder(root, v1)).toBe('written');
    expect(read('pdf-tools', 'SKILL.md')).toBe('v1');
    expect(fs.statSync(path.join(root, 'pdf-tools/scripts/run.sh')).mode & 0o777).toBe(0o755);
    expect(fs.statSync(path.join(root, 'pdf-tools/SKILL.md')).mode & 0o777).toBe(0o644);
    const marker = JSON.parse(read('pdf-tools', MARKER_FILE));
    expect(marker).toMatchObject({ name: 'pdf-tools', digest: v1.digest, writer: 'skilldock' });
    expect(typeof marker.writtenAt).toBe('string');

    expect(await putSkillFolder(root, v1)).toBe('unchanged');
    const v2 = folder('pdf-tools', { 'SKILL.md': 'v2', 'new/deep/file.txt': 'n' });
    expect(await putSkillFolder(root, v2)).toBe('written');
    expect(read('pdf-tools', 'SKILL.md')).toBe('v2');
    expect(fs.existsSync(path.join(root, 'pdf-tools/old.txt'))).toBe(false);
    expect((await readMarker(root, 'pdf-tools'))?.digest).toBe(v2.digest);
    expect(fs.readdirSync(root)).toEqual(['pdf-tools']);
  });

  it('refuses a folder it did not write, and a symlink, and changes nothing', async () => {
    fs.mkdirSync(path.join(root, 'mine'));
    fs.writeFileSync(path.join(root, 'mine/SKILL.md'), 'hand made');
    await rejectsWith(putSkillFolder(root, folder('mine', { 'SKILL.md': 'x' })), 'conflict');
    expect(read('mine', 'SKILL.md')).toBe('hand made');
    // A marker written by someone else, or naming another folder, is not ours either.
    fs.writeFileSync(path.join(root, 'mine', MARKER_FILE), JSON.stringify({ name: 'other', digest: 'x', writer: 'skilldock' }));
    await rejectsWith(putSkillFolder(root, folder('mine', { 'SKILL.md': 'x' })), 'conflict');

    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-target-'));
    await putSkillFolder(target, folder('linked', { 'SKILL.md': 'theirs' }));
    fs.symlinkSync(path.join(target, 'linked'), path.join(root, 'linked'));
    await rejectsWith(putSkillFolder(root, folder('linked', { 'SKILL.md': 'x' })), 'conflict');
    expect(fs.readFileSync(path.join(target, 'linked/SKILL.md'), 'utf8')).toBe('theirs');
    await rejectsWith(removeSkillFolder(root, 'linked'), 'conflict');
    expect(fs.lstatSync(path.join(root, 'linked')).isSymbolicLink()).toBe(true);
    fs.rmSync(target, { recursive: true, force: true });
    expect(fs.readdirSync(root).sort()).toEqual(['linked', 'mine']);
  });

  it.each([
    ['../escape', {}],
    ['..', {}],
    ['.hidden', {}],
    ['Upper', {}],
    ['a/b', {}],
    ['', {}],
    ['x'.repeat(129), {}],
  ])('rejects the folder name %j', async (name) => {
    await rejectsWith(putSkillFolder(root, folder(name, { 'SKILL.md': 'x' })), 'validation');
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it.each(['../x', 'a/../../x', '/etc/passwd', 'a//b', './a', 'a\\b', 'a\0b', '', MARKER_FILE, `${'d/'.repeat(16)}f`, `${'x'.repeat(256)}`])(
    'rejects the file path %j and writes nothing',
    async (p) => {
      await rejectsWith(putSkillFolder(root, folder('ok', { 'SKILL.md': 'x', [p]: 'bad' })), 'validation');
      expect(fs.readdirSync(root)).toEqual([]);
    },
  );

  it('rejects a path that is both a file and a folder', async () => {
    await rejectsWith(putSkillFolder(root, folder('ok', { a: '1', 'a/b': '2' })), 'validation');
    expect(fs.readdirSync(root)).toEqual([]);
  });
});

describe('removeSkillFolder and listManagedFolders', () => {
  it('lists ours and foreign without following symlinks; removes only ours', async () => {
    await putSkillFolder(root, folder('one', { 'SKILL.md': '1' }));
    await putSkillFolder(root, folder('two', { 'SKILL.md': '2' }));
    fs.mkdirSync(path.join(root, 'hand'));
    fs.writeFileSync(path.join(root, 'hand', MARKER_FILE), '{not json');
    fs.symlinkSync(path.join(root, 'one'), path.join(root, 'alias'));
    fs.writeFileSync(path.join(root, 'README.txt'), 'a file, not a skill');
    const { ours, foreign } = await listManagedFolders(root);
    expect([...ours.keys()].sort()).toEqual(['one', 'two']);
    expect(ours.get('one')?.digest).toBe(folder('one', { 'SKILL.md': '1' }).digest);
    expect([...foreign].sort()).toEqual(['alias', 'hand']);

    expect(await removeSkillFolder(root, 'one')).toBe('removed');
    expect(await removeSkillFolder(root, 'one')).toBe('absent');
    await rejectsWith(removeSkillFolder(root, 'hand'), 'conflict');
    await rejectsWith(removeSkillFolder(root, '../x'), 'validation');
    expect(fs.readdirSync(root).sort()).toEqual(['README.txt', 'alias', 'hand', 'two']);
  });

  it('answers empty for a missing root', async () => {
    const r = await listManagedFolders(path.join(root, 'nope'));
    expect(r.ours.size + r.foreign.size).toBe(0);
  });
});

describe('recoverLeftovers', () => {
  it('removes staging and trash, restores an old folder whose name is missing, deletes one whose name exists', async () => {
    const old = folder('a-b', { 'SKILL.md': 'old' });
    await putSkillFolder(root, old);
    fs.renameSync(path.join(root, 'a-b'), path.join(root, '.skilldock-old-a-b-0123456789ab'));
    fs.mkdirSync(path.join(root, '.skilldock-staging-a-b-aaaaaaaaaaaa/x'), { recursive: true });
    fs.mkdirSync(path.join(root, '.skilldock-trash-c-bbbbbbbbbbbb'));
    await putSkillFolder(root, folder('d', { 'SKILL.md': 'new' }));
    fs.mkdirSync(path.join(root, '.skilldock-old-d-cccccccccccc'));
    fs.mkdirSync(path.join(root, '.skilldock-other'));

    const r = await recoverLeftovers(root);
    expect(r.restored).toEqual(['a-b']);
    expect(fs.readdirSync(root).sort()).toEqual(['.skilldock-other', 'a-b', 'd']);
    expect(read('a-b', 'SKILL.md')).toBe('old');
    expect((await readMarker(root, 'a-b'))?.digest).toBe(old.digest);
    expect(read('d', 'SKILL.md')).toBe('new');
  });
});

describe('stageSkillFolder, makeDurable and commitStaged (a pass of many folders)', () => {
  it('stages out of sight, swaps in on commit, and answers null for the same digest or a conflict for a foreign folder', async () => {
    const v1 = folder('one', { 'SKILL.md': 'v1', 'scripts/run.sh': '#!/bin/sh\n' }, ['scripts/run.sh']);
    const two = folder('two', { 'SKILL.md': 'two' });
    const staged = [await stageSkillFolder(root, v1), await stageSkillFolder(root, two)];
    expect(staged.every((s) => s !== null)).toBe(true);
    // Nothing is in place before the commit: only the hidden staging copies.
    expect(fs.readdirSync(root).every((e) => e.startsWith('.skilldock-staging-'))).toBe(true);
    await makeDurable(root, staged as StagedFolder[]);
    for (const s of staged) expect(await commitStaged(root, s as StagedFolder)).toBeNull();
    expect(fs.readdirSync(root).sort()).toEqual(['one', 'two']);
    expect(read('one', 'SKILL.md')).toBe('v1');
    expect(fs.statSync(path.join(root, 'one/scripts/run.sh')).mode & 0o777).toBe(0o755);
    expect((await readMarker(root, 'two'))?.digest).toBe(two.digest);

    expect(await stageSkillFolder(root, v1)).toBeNull();
    const v2 = folder('one', { 'SKILL.md': 'v2' });
    const s2 = (await stageSkillFolder(root, v2)) as StagedFolder;
    expect(read('one', 'SKILL.md')).toBe('v1');
    await makeDurable(root, [s2]);
    const old = await commitStaged(root, s2);
    expect(old && fs.existsSync(old)).toBe(true);
    expect(read('one', 'SKILL.md')).toBe('v2');

    fs.mkdirSync(path.join(root, 'theirs'));
    await rejectsWith(stageSkillFolder(root, folder('theirs', { 'SKILL.md': 'x' })), 'conflict');
    expect(fs.readdirSync(path.join(root, 'theirs'))).toEqual([]);
  });

  it('records the stats it wrote, so the signature taken in staging is the one the folder has once in place', async () => {
    const f = folder('signed', { 'SKILL.md': 's', 'a/b/c.txt': 'c', 'a/d.txt': 'd', 'run.sh': '#!/bin/sh\n' }, ['run.sh']);
    const s = (await stageSkillFolder(root, f)) as StagedFolder;
    expect(s.entries.map((e) => e.rel).sort()).toEqual(['.skilldock.json', 'SKILL.md', 'a', 'a/b', 'a/b/c.txt', 'a/d.txt', 'run.sh']);
    await makeDurable(root, [s]);
    await commitStaged(root, s);
    const now = Date.now();
    expect(signatureOf(s.entries, now).id).toBe(folderSignature(root, 'signed')?.id);
    fs.writeFileSync(path.join(root, 'signed/a/d.txt'), 'D');
    expect(signatureOf(s.entries, now).id).not.toBe(folderSignature(root, 'signed')?.id);
  });

  it('flushes a few files one by one (a missing one fails the barrier) and many with one filesystem flush', async () => {
    const few = (await stageSkillFolder(root, folder('few', { 'SKILL.md': 'a', 'b.txt': 'b' }))) as StagedFolder;
    await makeDurable(root, [few]);
    fs.rmSync(path.join(few.staging, 'b.txt'));
    await expect(makeDurable(root, [few])).rejects.toMatchObject({ code: 'ENOENT' });
    const files = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`f/${i}.txt`, String(i)]));
    const many = (await stageSkillFolder(root, folder('many', { 'SKILL.md': 'm', ...files }))) as StagedFolder;
    expect(many.files.length).toBe(82);
    await makeDurable(root, [many]);
    await commitStaged(root, many);
    expect(read('many', 'f/79.txt')).toBe('79');
  });
});
