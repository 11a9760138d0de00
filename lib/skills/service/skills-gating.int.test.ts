// Gating follows Runtime & Packages with no refresh and no wait: a skill requiring bin `skd-hello`
// needs setup until the binary is installed through the real GitHub install job (a loopback GitHub
// serving a real ELF built by the test), is ready right after, and needs setup again after uninstall.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as installRoute } from '@/app/api/v1/packages/install/route';
import { POST as uninstallRoute } from '@/app/api/v1/packages/uninstall/route';
import { PUT as githubSettings } from '@/app/api/v1/settings/github/route';
import { POST as refreshRoute } from '@/app/api/v1/skills/refresh/route';
import type { JobRow } from '@/lib/jobs';
import { setServices } from '@/lib/services';
import { apiUser, jobEnd } from '@/test/helpers/api';
import { buildHello, cleanupElfBuilds } from '@/test/helpers/elf-builds';
import { FakeGithub, tarGzWith } from '@/test/helpers/github-server';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { type Reply, type SkillsClient, skillMd, skillsClient, writeSkill } from '@/test/helpers/skills-api';

let t: TestServices;
let gh: FakeGithub;
let api: SkillsClient;
let tmp: string;
let runtimeDir: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), 'skilldock-skgate-'));
  runtimeDir = path.join(tmp, 'runtime');
  fs.mkdirSync(runtimeDir);
  const elf = fs.readFileSync(buildHello('glibc', { version: '1.0.0' }));
  gh = await new FakeGithub().start();
  gh.releases.set('acme/skd-hello', [
    {
      tag: 'v1.0.0',
      assets: [
        {
          name: 'skd-hello_1.0.0_linux_amd64.tar.gz',
          data: tarGzWith('skd-hello_1.0.0', { 'skd-hello': elf, 'README.md': 'hello' }, { exec: ['skd-hello'] }),
          digest: true,
        },
      ],
    },
  ]);
  t = await startTestServices({ env: { RUNTIME_DIR: runtimeDir } });
  setServices(Promise.resolve(t.services));
  const { token } = await apiUser(t.services, {
    email: 'gating-admin@example.com',
    role: 'admin',
    tokenName: 'gating',
    permissions: ['skills.read', 'skills.write', 'packages.read', 'packages.write'],
  });
  api = skillsClient(t.services, token);
  expect((await api.put(githubSettings, '/api/v1/settings/github', { apiBaseUrl: gh.base })).status).toBe(200);
  const ws = path.join(tmp, 'ws');
  expect((await api.settings({ workspaceDir: ws, personalDir: path.join(tmp, 'personal') })).status).toBe(200);
  writeSkill(path.join(ws, 'skills'), 'hello-user', {
    'SKILL.md': skillMd('hello-user', 'Greets through the skd-hello tool.', { metadata: { openclaw: { requires: { bins: ['skd-hello'] } } } }),
  });
  await api.post(refreshRoute, '/api/v1/skills/refresh');
}, 180_000);
afterAll(async () => {
  await t?.stop();
  await gh?.stop();
  cleanupElfBuilds();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const finished = async (r: Reply): Promise<JobRow> => {
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  return jobEnd(t.services, (r.body as JobRow).id, 120_000);
};

describe('gating after package installs', () => {
  it('needs setup while skd-hello is missing, naming it', async () => {
    expect(fs.existsSync(path.join(runtimeDir, 'bin', 'skd-hello'))).toBe(false);
    const s = await api.skill('hello-user');
    expect(s).toMatchObject({ status: 'needs-setup', eligible: false, missing: { bins: ['skd-hello'] } });
    expect(s!.reasons).toEqual(['missing bin skd-hello']);
  });

  it('is ready right after github:acme/skd-hello is installed by the job (no refresh, no wait)', async () => {
    const job = await finished(await api.post(installRoute, '/api/v1/packages/install', { spec: 'github:acme/skd-hello' }));
    expect(job.state, job.error ?? '').toBe('succeeded');
    expect(fs.statSync(path.join(runtimeDir, 'bin', 'skd-hello')).isFile()).toBe(true);
    const s = await api.skill('hello-user');
    expect(s).toMatchObject({ status: 'ready', eligible: true, reasons: [], missing: { bins: [] } });
    const detail = await api.detail(s!.id);
    expect(detail.body.gating.trace).toEqual(expect.arrayContaining([expect.objectContaining({ step: 'bins', pass: true })]));
  });

  it('needs setup again right after the uninstall job', async () => {
    const job = await finished(await api.post(uninstallRoute, '/api/v1/packages/uninstall', { spec: 'github:acme/skd-hello' }));
    expect(job.state, job.error ?? '').toBe('succeeded');
    expect(fs.existsSync(path.join(runtimeDir, 'bin', 'skd-hello'))).toBe(false);
    expect(await api.skill('hello-user')).toMatchObject({ status: 'needs-setup', missing: { bins: ['skd-hello'] }, reasons: ['missing bin skd-hello'] });
  });
});
