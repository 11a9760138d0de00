// The skill file viewer re-reads a file that discovery listed: a symlink or FIFO swapped in since
// then must be refused, not followed or waited on.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as fileRoute } from '@/app/api/v1/skills/[id]/file/route';
import { POST as refreshRoute } from '@/app/api/v1/skills/refresh/route';
import { setServices } from '@/lib/services';
import { apiUser } from '@/test/helpers/api';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { type SkillsClient, skillMd, skillsClient, writeSkill } from '@/test/helpers/skills-api';

let t: TestServices;
let api: SkillsClient;
let adminApi: SkillsClient;
let tmp: string;
let ws: string;
let secret: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), 'skilldock-skfile-'));
  ws = path.join(tmp, 'workspace');
  fs.mkdirSync(path.join(ws, 'skills'), { recursive: true });
  secret = path.join(tmp, 'secret.txt');
  fs.writeFileSync(secret, 'the session secret\n');
  t = await startTestServices();
  setServices(Promise.resolve(t.services));
  const { token } = await apiUser(t.services, { email: 'skfile-viewer@example.com', role: 'viewer', tokenName: 'skfile', permissions: ['skills.read'] });
  const admin = await apiUser(t.services, {
    email: 'skfile-admin@example.com',
    role: 'admin',
    tokenName: 'skfile-admin',
    permissions: ['skills.read', 'skills.write'],
  });
  adminApi = skillsClient(t.services, admin.token);
  expect((await adminApi.settings({ workspaceDir: ws, watch: false })).status).toBe(200);
  api = skillsClient(t.services, token);
}, 60_000);
afterAll(async () => {
  await t?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

async function discovered(name: string, files: Record<string, string>) {
  const dir = writeSkill(path.join(ws, 'skills'), name, { 'SKILL.md': skillMd(name, `The ${name} skill.`), ...files });
  expect((await adminApi.post(refreshRoute, '/api/v1/skills/refresh')).status).toBeLessThan(300);
  const s = await api.skill(name);
  expect(s, name).toBeDefined();
  return { dir, id: s!.id as string };
}
const read = (id: string, rel: string) => api.get(fileRoute, `/api/v1/skills/${id}/file?path=${encodeURIComponent(rel)}`, { id });

describe('skill file viewer', () => {
  it('reads a listed regular file', async () => {
    const { id } = await discovered('file-ok', { 'notes.md': 'hello\n' });
    const r = await read(id, 'notes.md');
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(JSON.stringify(r.body)).toContain('hello');
  });

  it('refuses a symlink swapped in after discovery', async () => {
    const { dir, id } = await discovered('file-swap', { 'notes.md': 'hello\n' });
    fs.rmSync(path.join(dir, 'notes.md'));
    fs.symlinkSync(secret, path.join(dir, 'notes.md'));
    const r = await read(id, 'notes.md');
    expect(r.status).toBe(403);
    expect(JSON.stringify(r.body)).not.toContain('session secret');
  });

  it('refuses a parent folder swapped for a symlink', async () => {
    const { dir, id } = await discovered('file-parent-swap', { 'refs/notes.md': 'hello\n' });
    const outside = path.join(tmp, 'outside-refs');
    fs.mkdirSync(outside);
    fs.writeFileSync(path.join(outside, 'notes.md'), 'the session secret\n');
    fs.rmSync(path.join(dir, 'refs'), { recursive: true });
    fs.symlinkSync(outside, path.join(dir, 'refs'));
    const r = await read(id, 'refs/notes.md');
    expect(r.status).toBe(403);
    expect(JSON.stringify(r.body)).not.toContain('session secret');
  });

  it('refuses a FIFO swapped in after discovery without waiting for a writer', async () => {
    const { dir, id } = await discovered('file-fifo', { 'notes.md': 'hello\n' });
    fs.rmSync(path.join(dir, 'notes.md'));
    execFileSync('mkfifo', [path.join(dir, 'notes.md')]);
    const r = await read(id, 'notes.md');
    expect(r.status).toBe(400);
    expect((r.body as { error: { code: string } }).error.code).toBe('validation');
  });

  it('refuses a symlink to /dev/zero swapped in after discovery', async () => {
    const { dir, id } = await discovered('file-zero', { 'notes.md': 'hello\n' });
    fs.rmSync(path.join(dir, 'notes.md'));
    fs.symlinkSync('/dev/zero', path.join(dir, 'notes.md'));
    const r = await read(id, 'notes.md');
    expect(r.status).toBe(403);
  });
});
