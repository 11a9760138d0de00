/** Good skill archives (zip, tar.gz, tar; root, top-folder and package/ layouts) and single SKILL.md staging. */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '@/lib/core/errors';
import { listTree } from '../../archive/archive.fixtures';
import { contentHash, listSkillFiles } from '../files';
import { buildTar, buildZip, gzip, SKILL_MD } from './archive-corpus.fixtures';
import { extractSkillArchive, MAX_SINGLE_SKILL_MD_BYTES, stageSkillFile } from './extract';

const run = promisify(execFile);
const REAL = path.resolve(__dirname, '../../../test/fixtures/skills-real/anthropic/skill-creator');

let work: string;
beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-extract-'));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

let n = 0;
const save = (bytes: Buffer, ext: string) => {
  const file = path.join(work, `good-${++n}.${ext}`);
  fs.writeFileSync(file, bytes);
  return file;
};
const staging = () => path.join(fs.mkdtempSync(path.join(work, 'parent-')), 'staging');

describe('good archives', () => {
  it('zip with SKILL.md at the root', async () => {
    const dir = staging();
    const file = save(
      buildZip([{ name: 'SKILL.md', data: SKILL_MD }, { name: 'scripts/' }, { name: 'scripts/run.sh', data: 'echo hi\n', unixMode: 0o104777 }]),
      'zip',
    );
    const out = await extractSkillArchive(file, dir);
    expect(out).toEqual({ root: dir, format: 'zip', entries: 3, bytes: Buffer.byteLength(SKILL_MD) + 8 });
    expect(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8')).toBe(SKILL_MD);
    expect(fs.statSync(path.join(dir, 'scripts/run.sh')).mode & 0o7777).toBe(0o755); // setuid and world-write clamped
  });

  it('tar.gz with a single top folder', async () => {
    const dir = staging();
    const file = save(
      gzip(
        buildTar([
          { name: 'demo-skill/', type: 'dir' },
          { name: 'demo-skill/SKILL.md', data: SKILL_MD },
          { name: 'demo-skill/ref/a.md', data: 'a' },
        ]),
      ),
      'tgz',
    );
    const out = await extractSkillArchive(file, dir);
    expect(out.format).toBe('tar.gz');
    expect(out.root).toBe(path.join(dir, 'demo-skill'));
    expect(listTree(out.root)).toEqual(['SKILL.md', 'ref', 'ref/a.md']);
  });

  it('plain tar with package/ next to other top-level files (npm pack layout)', async () => {
    const dir = staging();
    const file = save(
      buildTar([
        { name: 'README', data: 'outer' },
        { name: 'package/SKILL.md', data: SKILL_MD },
        { name: 'package/index.js', data: '1' },
      ]),
      'tar',
    );
    const out = await extractSkillArchive(file, dir);
    expect(out.format).toBe('tar');
    expect(out.root).toBe(path.join(dir, 'package'));
  });

  it.each(['skill.md', 'skills.md', 'SKILL.MD'])('%s is accepted and renamed to SKILL.md', async (marker) => {
    const dir = staging();
    const out = await extractSkillArchive(
      save(
        buildZip([
          { name: `top/${marker}`, data: SKILL_MD },
          { name: 'top/x.md', data: 'x' },
        ]),
        'zip',
      ),
      dir,
    );
    expect(fs.readdirSync(out.root).sort()).toEqual(['SKILL.md', 'x.md']);
    expect(fs.readFileSync(path.join(out.root, 'SKILL.md'), 'utf8')).toBe(SKILL_MD);
  });

  it('SKILL.md wins over skills.md when both are present', async () => {
    const dir = staging();
    const out = await extractSkillArchive(
      save(
        buildZip([
          { name: 'SKILL.md', data: SKILL_MD },
          { name: 'skills.md', data: 'list' },
        ]),
        'zip',
      ),
      dir,
    );
    expect(fs.readdirSync(out.root).sort()).toEqual(['SKILL.md', 'skills.md']);
    expect(fs.readFileSync(path.join(out.root, 'SKILL.md'), 'utf8')).toBe(SKILL_MD);
  });

  it('macOS __MACOSX junk does not count as a second top folder', async () => {
    const dir = staging();
    const out = await extractSkillArchive(
      save(
        buildZip([
          { name: 'demo/SKILL.md', data: SKILL_MD },
          { name: '__MACOSX/demo/._SKILL.md', data: 'junk' },
        ]),
        'zip',
      ),
      dir,
    );
    expect(out.root).toBe(path.join(dir, 'demo'));
  });

  it('incompressible content over 1 MiB passes the ratio check', async () => {
    const dir = staging();
    const out = await extractSkillArchive(
      save(
        gzip(
          buildTar([
            { name: 'SKILL.md', data: SKILL_MD },
            { name: 'blob.bin', data: randomBytes(3 * 1024 * 1024) },
          ]),
        ),
        'tgz',
      ),
      dir,
    );
    expect(out.bytes).toBe(3 * 1024 * 1024 + Buffer.byteLength(SKILL_MD));
  });

  it('a real published skill packed by the real tar and zip tools hashes like its source', async () => {
    const sourceHash = contentHash(await listSkillFiles(REAL));
    const tgz = path.join(work, 'real.tar.gz');
    const zipFile = path.join(work, 'real.zip');
    await run('tar', ['-czf', tgz, '-C', path.dirname(REAL), path.basename(REAL)]);
    await run('zip', ['-qr', zipFile, '.'], { cwd: REAL });
    for (const file of [tgz, zipFile]) {
      const out = await extractSkillArchive(file, staging());
      expect(contentHash(await listSkillFiles(out.root))).toBe(sourceHash);
    }
  });

  it('an existing empty staging folder is used; a non-empty one is refused and left alone', async () => {
    const dir = staging();
    fs.mkdirSync(dir);
    await extractSkillArchive(save(buildZip([{ name: 'SKILL.md', data: SKILL_MD }]), 'zip'), dir);
    const err = await extractSkillArchive(save(buildZip([{ name: 'SKILL.md', data: SKILL_MD }]), 'zip'), dir).catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('conflict');
    expect(fs.readFileSync(path.join(dir, 'SKILL.md'), 'utf8')).toBe(SKILL_MD);
  });

  it('an aborted extraction removes the staging folder and reports the abort', async () => {
    const dir = staging();
    const ctl = new AbortController();
    ctl.abort(new Error('stop'));
    await expect(extractSkillArchive(save(buildZip([{ name: 'SKILL.md', data: SKILL_MD }]), 'zip'), dir, {}, ctl.signal)).rejects.toThrow(/stop|abort/i);
    expect(fs.existsSync(dir)).toBe(false);
  });
});

describe('stageSkillFile', () => {
  it('stages a bare SKILL.md as a one-file skill', async () => {
    const dir = staging();
    const out = await stageSkillFile(SKILL_MD, dir);
    expect(out).toEqual({ root: dir, bytes: Buffer.byteLength(SKILL_MD) });
    expect(listTree(dir)).toEqual(['SKILL.md']);
    expect(fs.statSync(path.join(dir, 'SKILL.md')).mode & 0o777).toBe(0o644);
  });

  it('refuses an oversized SKILL.md and writes nothing', async () => {
    const dir = staging();
    const err = await stageSkillFile('x'.repeat(MAX_SINGLE_SKILL_MD_BYTES + 1), dir).catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('archive_too_large');
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('refuses binary content and a non-empty staging folder', async () => {
    const dir = staging();
    const bin = await stageSkillFile('a\0b', dir).catch((e: unknown) => e);
    expect(isAppError(bin) && bin.code).toBe('invalid_skill');
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'other'), 'x');
    const busy = await stageSkillFile(SKILL_MD, dir).catch((e: unknown) => e);
    expect(isAppError(busy) && busy.code).toBe('conflict');
    expect(listTree(dir)).toEqual(['other']);
  });
});
