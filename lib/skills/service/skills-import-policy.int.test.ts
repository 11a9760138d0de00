// test-phase: pglite only. What it proves is the classification of real file contents; its database
// writes are the import job and settings operations other files run on both engines.
// The import policy through the routes and the skill.import job: a skill holding binaries (a real ELF
// renamed .md, a PNG) fails naming them and installs nothing, from an upload and from git alike, and
// imports once an admin allows binaries (audited); archive uploads switched off are refused before a
// byte is stored, and an import of an earlier upload is refused too (PGlite and PostgreSQL).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setServices } from '@/lib/services';
import { apiUser } from '@/test/helpers/api';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { auditRows, jobResult, type SkillsClient, skillMd, skillsClient, treeOf } from '@/test/helpers/skills-api';
import { zipSkill } from '@/test/helpers/skills-archives';

let t: TestServices;
let api: SkillsClient;
let tmp: string;

const ELF = fs.readFileSync('/bin/true');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from('IHDR')]);

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), 'skilldock-skpol-'));
  t = await startTestServices();
  setServices(Promise.resolve(t.services));
  const { token } = await apiUser(t.services, {
    email: 'policy-admin@example.com',
    role: 'admin',
    tokenName: 'policy',
    permissions: ['skills.read', 'skills.write'],
  });
  api = skillsClient(t.services, token);
  expect((await api.settings({ workspaceDir: path.join(tmp, 'ws'), personalDir: path.join(tmp, 'personal') })).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await t?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const count = async (table: string) => (await t.services.database.rows<{ n: number }>(sql.raw(`select count(*)::int as n from ${table}`)))[0].n;
const storeState = () => ({ managed: treeOf(path.join(t.dataDir, 'skills', 'managed')), store: treeOf(path.join(t.dataDir, 'skills', 'store')) });

describe('the allowed-file-types policy', () => {
  const NAME = 'ships-binaries';
  const archive = zipSkill(NAME, {
    'SKILL.md': skillMd(NAME, 'Ships a helper binary and a logo.'),
    'docs/usage.md': ELF,
    'assets/logo.png': PNG,
    LICENSE: 'MIT\n',
  });

  it('fails an upload import holding an ELF renamed .md and a PNG, naming both and the settings; nothing is installed', async () => {
    const before = storeState();
    const installs = await count('skill_installs');
    const job = await api.importArchive(archive);
    expect(job.state).toBe('failed');
    const result = jobResult(job);
    expect(result.code).toBe('file_type_not_allowed');
    expect(job.error).toContain('docs/usage.md (an ELF executable or library)');
    expect(job.error).toContain('assets/logo.png (a PNG image; .png is not an allowed file type)');
    expect(result.hint).toMatch(/allowedBinaryFileTypes.*allowBinaryFiles|allowBinaryFiles.*allowedBinaryFileTypes/);
    expect(result.details.files.map((f: { path: string }) => f.path)).toEqual(['assets/logo.png', 'docs/usage.md']);
    expect(storeState()).toEqual(before);
    expect(await count('skill_installs')).toBe(installs);
    expect(await api.skill(NAME)).toBeUndefined();
    expect(treeOf(path.join(t.dataDir, 'skills', 'staging'))).toEqual([]);
  });

  it('still refuses the ELF once PNG is an allowed binary type: a listed extension does not admit an executable', async () => {
    expect((await api.settings({ allowedBinaryFileTypes: ['png'] })).status).toBe(200);
    const job = await api.importArchive(archive);
    expect(job.state).toBe('failed');
    expect(jobResult(job).details.files).toEqual([{ path: 'docs/usage.md', reason: 'an ELF executable or library', setting: 'allowBinaryFiles' }]);
    expect(await api.skill(NAME)).toBeUndefined();
  });

  it('imports it after an admin allows binary files, and the switch is audited', async () => {
    const put = await api.settings({ allowBinaryFiles: true });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ allowBinaryFiles: true, allowedBinaryFileTypes: ['png'], allowUploadedArchives: true });
    const [audit] = (await auditRows(t.services, 'settings.skills.update')).slice(-1);
    expect(JSON.parse(audit.before!)).toMatchObject({ allowBinaryFiles: false });
    expect(JSON.parse(audit.after!)).toMatchObject({ allowBinaryFiles: true });
    const job = await api.importArchive(archive);
    expect(job.state, job.error ?? '').toBe('succeeded');
    expect(jobResult(job)).toMatchObject({ slug: NAME, version: 'v1' });
    expect(fs.readFileSync(path.join(t.dataDir, 'skills', 'managed', NAME, 'docs', 'usage.md')).equals(ELF)).toBe(true);
    expect((await api.settings({ allowBinaryFiles: false, allowedBinaryFileTypes: [] })).status).toBe(200);
  });

  it('applies the same check to a git import (one mechanism for every source)', async () => {
    const env = {
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.com',
    };
    const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, stdio: 'pipe' });
    const work = path.join(tmp, 'git-bin');
    fs.mkdirSync(path.join(work, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(work, 'SKILL.md'), skillMd('git-binary', 'Carries a binary in git.'));
    fs.writeFileSync(path.join(work, 'bin', 'tool.sh'), ELF);
    git(tmp, 'init', '-q', '-b', 'main', work);
    git(work, 'add', '.');
    git(work, 'commit', '-q', '-m', 'binary');
    expect((await api.settings({ gitAllowLocal: true })).status).toBe(200);
    const job = await api.importJob({ source: { kind: 'git', url: work } });
    expect(job.state).toBe('failed');
    expect(jobResult(job)).toMatchObject({
      code: 'file_type_not_allowed',
      details: { files: [{ path: 'bin/tool.sh', reason: 'an ELF executable or library' }] },
    });
    expect(await api.skill('git-binary')).toBeUndefined();
  });

  it('imports text-only skills with the defaults: scripts, extension-less files and dotfiles', async () => {
    const job = await api.importArchive(
      zipSkill('plain-text', {
        'SKILL.md': skillMd('plain-text', 'Only text.'),
        'scripts/run.py': 'print("ok")\n',
        Makefile: 'all:\n\t@echo ok\n',
        '.gitignore': '*.pyc\n',
        'data/table.csv': 'a,b\n1,2\n',
      }),
    );
    expect(job.state, job.error ?? '').toBe('succeeded');
  });
});

describe('switching archive uploads off', () => {
  it('refuses an upload with 403 before any byte is stored, and an import of an earlier upload without queueing a job', async () => {
    const archive = zipSkill('late-upload', { 'SKILL.md': skillMd('late-upload', 'Uploaded before uploads were switched off.') });
    const early = await api.upload(archive);
    expect(early.status).toBe(201);

    const put = await api.settings({ allowUploadedArchives: false });
    expect(put.status).toBe(200);
    const [audit] = (await auditRows(t.services, 'settings.skills.update')).slice(-1);
    expect(JSON.parse(audit.after!)).toEqual({ allowUploadedArchives: false });

    const counts = { uploads: await count('uploads'), blobs: await count('blobs'), jobs: await count('jobs') };
    const refused = await api.upload(zipSkill('refused', { 'SKILL.md': skillMd('refused', 'Never stored.') }));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'not_allowed', details: { setting: 'allowUploadedArchives' } });
    expect(refused.body.error.hint).toContain('Allow uploaded archives');
    const imp = await api.startImport({ source: { kind: 'upload', uploadId: early.body.uploadId } });
    expect(imp.status).toBe(403);
    expect(imp.body.error.code).toBe('not_allowed');
    expect({ uploads: await count('uploads'), blobs: await count('blobs'), jobs: await count('jobs') }).toEqual(counts);
    expect(await api.skill('late-upload')).toBeUndefined();

    expect((await api.settings({ allowUploadedArchives: true })).status).toBe(200);
    const job = await api.importJob({ source: { kind: 'upload', uploadId: early.body.uploadId } });
    expect(job.state, job.error ?? '').toBe('succeeded');
  });
});
