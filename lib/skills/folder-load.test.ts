/**
 * The folder loaders the catalog build uses must agree with each other and with the asynchronous
 * listing they replace in the build: the same files, hashes, identities, parse and scan on every
 * real skill; the same refusals on hostile folders (a link, a FIFO, too many files, a file too
 * large); a scan skipped only for a content the caller has a scan of; and the pool's worker path
 * answering what the in-thread loader answers.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTmp, writeSkill } from './catalog/testutil';
import { contentHash, listSkillFiles, SkillFilesError } from './files';
import { listSkillFilesSync } from './files-sync';
import { loadSkillFolder, loadSkillFolderSync, scanInput } from './folder-load';
import { closeScanPool, declaredOf, loadSkillFolderInPool, scanSkill } from './scanner';

const REAL = path.resolve(__dirname, '../../test/fixtures/skills-real');
const realSkills = fs
  .readdirSync(REAL, { withFileTypes: true })
  .filter((v) => v.isDirectory())
  .flatMap((v) => fs.readdirSync(path.join(REAL, v.name)).map((s) => path.join(REAL, v.name, s)))
  .filter((d) => fs.existsSync(path.join(d, 'SKILL.md')));

const opts = (dir: string) => ({ maxSkillFileBytes: 256_000, dirName: path.basename(dir), scan: true });
const sorted = <T extends [string, ...unknown[]]>(xs: T[]) => [...xs].sort((a, b) => (a[0] < b[0] ? -1 : 1));

let tmp: string;
beforeEach(() => {
  tmp = makeTmp('skilldock-folder-load-');
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));
afterAll(() => closeScanPool());

describe('folder loaders', () => {
  it('lists every real skill as the asynchronous listing does, identities and bytes included', async () => {
    expect(realSkills.length).toBeGreaterThan(30);
    for (const dir of realSkills) {
      const ids: [string, string][] = [];
      const dirs: [string, string][] = [];
      const bytes = new Map<string, string>();
      const files = await listSkillFiles(dir, {
        onIdentity: (p, id) => ids.push([p, id]),
        onDir: (p, id) => dirs.push([p, id]),
        onFile: (p, b) => bytes.set(p, b.toString('base64')),
      });
      const sync = listSkillFilesSync(dir);
      expect(sync.files).toEqual(files);
      expect(sorted(sync.fileIdentities.map(([p, id]) => [p, id] as [string, string]))).toEqual(sorted(ids));
      expect(sorted(sync.dirIdentities.map(([p, id]) => [p, id] as [string, string]))).toEqual(sorted(dirs));
      expect(new Map(sync.contents.map(([p, b]) => [p, b.toString('base64')]))).toEqual(bytes);
    }
  });

  it('reads no file whose identity is known, and hashes it as known', () => {
    const dir = writeSkill(path.join(tmp, 'k'), 'k', { 'a.txt': 'alpha', 'b.txt': 'beta' });
    const first = listSkillFilesSync(dir);
    const a = first.fileIdentities.find(([p]) => p === 'a.txt')!;
    const known = new Map([['a.txt', { identity: a[1], sha256: 'f'.repeat(64) }]]);
    const again = listSkillFilesSync(dir, { known });
    expect(again.files.find((f) => f.path === 'a.txt')!.sha256).toBe('f'.repeat(64));
    expect(again.contents.map(([p]) => p).sort()).toEqual(['SKILL.md', 'b.txt']);
  });

  it('refuses what the asynchronous listing refuses, with the same error', async () => {
    const cases: [string, (dir: string) => void, SkillFilesError['code'], number?][] = [
      ['link', (d) => fs.symlinkSync('/etc/hostname', path.join(d, 'leak.txt')), 'symlink'],
      ['fifo', (d) => execFileSync('mkfifo', [path.join(d, 'pipe')]), 'special-file'],
      ['many', (d) => Array.from({ length: 6 }, (_, i) => fs.writeFileSync(path.join(d, `f${i}.txt`), 'x')), 'too-many-files', 5],
      ['large', (d) => fs.writeFileSync(path.join(d, 'big.bin'), Buffer.alloc(4096)), 'file-too-large'],
    ];
    for (const [name, make, code, maxFiles] of cases) {
      const dir = writeSkill(path.join(tmp, name), name);
      make(dir);
      const limits = { maxFiles, maxFileBytes: name === 'large' ? 1024 : undefined };
      const asyncError = await listSkillFiles(dir, limits).catch((e: unknown) => e);
      let syncError: unknown;
      try {
        listSkillFilesSync(dir, limits);
      } catch (e) {
        syncError = e;
      }
      expect(asyncError).toBeInstanceOf(SkillFilesError);
      expect(syncError).toBeInstanceOf(SkillFilesError);
      expect({ code: (syncError as SkillFilesError).code, message: (syncError as Error).message }).toEqual({
        code: (asyncError as SkillFilesError).code,
        message: (asyncError as Error).message,
      });
      expect((syncError as SkillFilesError).code).toBe(code);
    }
  });

  it('loads and scans every real skill as the in-thread loader and the scanner do; skips the scan of a known content', async () => {
    for (const dir of realSkills) {
      const inThread = await loadSkillFolder(dir, opts(dir));
      const sync = loadSkillFolderSync(dir, opts(dir), new Set());
      expect(sync.parsed).toEqual(inThread.parsed);
      expect(sync.contentHash).toBe(contentHash(inThread.listing!.files));
      expect(sync.listing!.contents).toEqual([]);
      const files = await scanInput(dir, inThread.listing!.files, new Map(inThread.listing!.contents));
      expect(sync.scan).toEqual(scanSkill(files, declaredOf(inThread.parsed.manifest)));
      expect(loadSkillFolderSync(dir, opts(dir), new Set([sync.contentHash])).scan).toBeUndefined();
    }
  });

  it('reports a folder it cannot list as the skill’s files error, parsed all the same', async () => {
    const dir = writeSkill(path.join(tmp, 'linked'), 'linked');
    fs.symlinkSync('/etc/hostname', path.join(dir, 'leak.txt'));
    const sync = loadSkillFolderSync(dir, opts(dir), new Set());
    expect(sync.filesError).toMatchObject({ code: 'symlink', file: 'leak.txt' });
    expect(sync.parsed.manifest.name).toBe('linked');
    expect(sync.scan).toBeUndefined();
    expect(await loadSkillFolder(dir, opts(dir))).toMatchObject({ filesError: sync.filesError, parsed: sync.parsed });
  });

  // Starts the worker pool's threads, each importing the loader and the scanner.
  it('loads in the worker pool what the in-thread loader loads, bytes as Buffers', async () => {
    for (const dir of realSkills.slice(0, 8)) {
      const pooled = await loadSkillFolderInPool(dir, { ...opts(dir), scan: false });
      const inThread = await loadSkillFolder(dir, opts(dir));
      expect(pooled.parsed).toEqual(inThread.parsed);
      expect(pooled.listing!.files).toEqual(inThread.listing!.files);
      for (const [, b] of pooled.listing!.contents) expect(Buffer.isBuffer(b)).toBe(true);
      expect(new Map(pooled.listing!.contents)).toEqual(new Map(inThread.listing!.contents));
    }
  }, 60_000);
});
