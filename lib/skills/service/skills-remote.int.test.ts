// Imports from remote sources through the route and the skill.import job: a local bare git repo
// (allowed or not by settings), a loopback URL behind the SSRF guard (a redirect to the metadata
// address is refused before any connect), and ClawHub served by a loopback fake (PGlite and PostgreSQL).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setServices } from '@/lib/services';
import { installConnectTripwire } from '@/lib/skills/remote/connect-tripwire.fixtures';
import { apiUser } from '@/test/helpers/api';
import { startFakeClawhub } from '@/test/helpers/clawhub-server';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { jobResult, type SkillsClient, skillMd, skillsClient } from '@/test/helpers/skills-api';
import { zipSkill } from '@/test/helpers/skills-archives';

let t: TestServices;
let api: SkillsClient;
let tmp: string;
let tripwire: ReturnType<typeof installConnectTripwire>;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), 'skilldock-skrem-'));
  t = await startTestServices();
  setServices(Promise.resolve(t.services));
  const { token } = await apiUser(t.services, {
    email: 'remote-admin@example.com',
    role: 'admin',
    tokenName: 'remote',
    permissions: ['skills.read', 'skills.write'],
  });
  api = skillsClient(t.services, token);
  expect((await api.settings({ workspaceDir: path.join(tmp, 'ws'), personalDir: path.join(tmp, 'personal') })).status).toBe(200);
  // Every TCP connect of this process (the job worker runs here) is recorded; non-loopback ones are refused.
  tripwire = installConnectTripwire();
}, 60_000);
afterAll(async () => {
  tripwire?.restore();
  await t?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const managed = (slug: string) => path.join(t.dataDir, 'skills', 'managed', slug);

describe('git imports from a local bare repository', () => {
  let bare = '';

  beforeAll(() => {
    bare = path.join(tmp, 'skills-repo.git');
    const work = path.join(tmp, 'git-work');
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
    git(tmp, 'init', '-q', '--bare', '-b', 'main', bare);
    git(tmp, 'init', '-q', '-b', 'main', work);
    fs.writeFileSync(path.join(work, 'README.md'), 'skills\n');
    git(work, 'add', '.');
    git(work, 'commit', '-q', '-m', 'main');
    git(work, 'checkout', '-q', '-b', 'feature');
    fs.mkdirSync(path.join(work, 'skills', 'git-demo', 'scripts'), { recursive: true });
    fs.writeFileSync(path.join(work, 'skills', 'git-demo', 'SKILL.md'), skillMd('git-demo', 'A skill imported from git.'));
    fs.writeFileSync(path.join(work, 'skills', 'git-demo', 'scripts', 'hello.py'), 'print("hello")\n');
    git(work, 'add', '.');
    git(work, 'commit', '-q', '-m', 'feature');
    git(work, 'push', '-q', bare, 'main', 'feature');
  });

  it('refuses a local repository while gitAllowLocal is false', async () => {
    expect((await api.settings({ gitAllowLocal: false })).status).toBe(200);
    const job = await api.importJob({ source: { kind: 'git', url: bare, ref: 'feature', subdir: 'skills/git-demo' } });
    expect(job.state).toBe('failed');
    expect(jobResult(job)).toMatchObject({ code: 'not_allowed' });
    expect(fs.existsSync(managed('git-demo'))).toBe(false);
  });

  it('imports a branch and sub-folder once gitAllowLocal is true', async () => {
    expect((await api.settings({ gitAllowLocal: true })).status).toBe(200);
    const job = await api.importJob({ source: { kind: 'git', url: bare, ref: 'feature', subdir: 'skills/git-demo' } });
    expect(job.state, job.error ?? '').toBe('succeeded');
    expect(jobResult(job)).toMatchObject({ slug: 'git-demo', version: 'v1' });
    expect(fs.readFileSync(path.join(managed('git-demo'), 'scripts', 'hello.py'), 'utf8')).toBe('print("hello")\n');
    expect(fs.existsSync(path.join(managed('git-demo'), '.git'))).toBe(false);
    expect(await api.skill('git-demo')).toMatchObject({ source: 'managed', description: 'A skill imported from git.' });
    // A branch that does not exist: the job fails, nothing new is installed.
    const missing = await api.importJob({ source: { kind: 'git', url: bare, ref: 'nope', subdir: 'skills/git-demo' }, force: true });
    expect(missing.state).toBe('failed');
    expect(jobResult(missing)).toMatchObject({ code: 'not_found' });
  });
});

describe('URL imports behind the SSRF guard', () => {
  let server: http.Server;
  let port = 0;
  const hits: string[] = [];
  const zip = zipSkill('url-demo', { 'SKILL.md': skillMd('url-demo', 'A skill fetched from a URL.') });

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/url-demo.zip') return void res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(zip.length) }).end(zip);
      if (req.url === '/to-metadata') return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/skill.zip' }).end();
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );

  it('refuses a loopback URL that is not in urlPrivateHosts, without connecting to it', async () => {
    expect((await api.settings({ urlPrivateHosts: [] })).status).toBe(200);
    const job = await api.importJob({ source: { kind: 'url', url: `http://127.0.0.1:${port}/url-demo.zip` } });
    expect(job.state).toBe('failed');
    expect(jobResult(job)).toMatchObject({ code: 'ssrf_blocked' });
    expect(hits).toEqual([]);
    expect(tripwire.attempts.filter((a) => a.port === port)).toEqual([]);
  });

  it('imports from a loopback host an admin listed in urlPrivateHosts', async () => {
    expect((await api.settings({ urlPrivateHosts: [`127.0.0.1:${port}`] })).status).toBe(200);
    const job = await api.importJob({ source: { kind: 'url', url: `http://127.0.0.1:${port}/url-demo.zip` } });
    expect(job.state, job.error ?? '').toBe('succeeded');
    expect(jobResult(job)).toMatchObject({ slug: 'url-demo', version: 'v1' });
    expect(hits).toEqual(['/url-demo.zip']);
    expect(await api.skill('url-demo')).toMatchObject({ source: 'managed', description: 'A skill fetched from a URL.' });
  });

  it('refuses a redirect from the allowed server to 169.254.169.254 before any packet is sent there', async () => {
    const job = await api.importJob({ source: { kind: 'url', url: `http://127.0.0.1:${port}/to-metadata` } });
    expect(job.state).toBe('failed');
    expect(jobResult(job)).toMatchObject({ code: 'ssrf_blocked' });
    expect(hits.at(-1)).toBe('/to-metadata');
    // The guard refused it: no connect was even attempted (the tripwire would have recorded and refused one).
    expect(tripwire.attempts.filter((a) => a.host === '169.254.169.254' || a.address === '169.254.169.254')).toEqual([]);
    expect(tripwire.refused).toEqual([]);
  });
});

describe('ClawHub imports', () => {
  let hub: Awaited<ReturnType<typeof startFakeClawhub>>;
  const files = (name: string, v: string) => ({ 'SKILL.md': skillMd(name, `ClawHub ${name} ${v}.`), 'notes.md': `release ${v}\n` });

  beforeAll(async () => {
    hub = await startFakeClawhub({
      skills: [
        {
          slug: 'hub-demo',
          owner: 'alice',
          versions: [
            { version: '1.0.0', files: files('hub-demo', '1.0.0') },
            { version: '1.1.0', files: files('hub-demo', '1.1.0') },
          ],
        },
        { slug: 'twin', owner: 'alice', versions: [{ version: '1.0.0', files: files('twin', 'alice') }] },
        { slug: 'twin', owner: 'bob', versions: [{ version: '2.0.0', files: files('twin', 'bob') }] },
        {
          slug: 'bad-hub',
          owner: 'mallory',
          versions: [
            { version: '1.0.0', files: files('bad-hub', '1.0.0'), moderation: { verdict: 'malicious', reasonCodes: ['malicious.install_terminal_payload'] } },
          ],
        },
      ],
    });
    expect((await api.settings({ clawhubBaseUrl: hub.url })).status).toBe(200);
  });
  afterAll(() => hub?.close());

  const lock = () => JSON.parse(fs.readFileSync(path.join(t.dataDir, 'skills', 'managed', '.clawhub', 'lock.json'), 'utf8'));

  it('imports by slug (the latest version) and by @owner/slug@version (exactly that version), writing lock.json', async () => {
    const latest = await api.importJob({ source: { kind: 'clawhub', ref: 'hub-demo' } });
    expect(latest.state, latest.error ?? '').toBe('succeeded');
    expect(jobResult(latest)).toMatchObject({ slug: 'hub-demo', version: 'v1', registry: { slug: 'hub-demo', version: '1.1.0' } });
    expect(fs.readFileSync(path.join(managed('hub-demo'), 'notes.md'), 'utf8')).toBe('release 1.1.0\n');

    const exact = await api.importJob({ source: { kind: 'clawhub', ref: '@alice/hub-demo@1.0.0' }, force: true });
    expect(exact.state, exact.error ?? '').toBe('succeeded');
    expect(jobResult(exact)).toMatchObject({ slug: 'hub-demo', version: 'v2', registry: { version: '1.0.0', ownerHandle: 'alice' } });
    expect(fs.readFileSync(path.join(managed('hub-demo'), 'notes.md'), 'utf8')).toBe('release 1.0.0\n');
    const l = lock();
    expect(l.version).toBe(1);
    expect(l.skills['hub-demo']).toMatchObject({ version: '1.0.0', ownerHandle: 'alice', installedAt: expect.any(Number) });
    expect(await api.skill('hub-demo')).toMatchObject({ source: 'managed', description: 'ClawHub hub-demo 1.0.0.' });
  });

  it('fails an ambiguous slug with ambiguous_slug and the owners to pick from', async () => {
    const job = await api.importJob({ source: { kind: 'clawhub', ref: 'twin' } });
    expect(job.state).toBe('failed');
    const result = jobResult(job);
    expect(result.code).toBe('ambiguous_slug');
    expect([...result.details.owners].sort()).toEqual(['alice', 'bob']);
    expect(fs.existsSync(managed('twin'))).toBe(false);
  });

  it('imports an ambiguous slug once an owner is picked (ownerHandle), hash-checked against that owner', async () => {
    const picked = await api.importJob({ source: { kind: 'clawhub', ref: 'twin', ownerHandle: 'bob' } });
    expect(picked.state, picked.error ?? '').toBe('succeeded');
    expect(lock().skills.twin).toMatchObject({ version: '2.0.0', ownerHandle: 'bob' });
  });

  it('refuses a version the registry flags as malicious (registry_blocked), downloading nothing', async () => {
    const job = await api.importJob({ source: { kind: 'clawhub', ref: 'bad-hub' } });
    expect(job.state).toBe('failed');
    expect(jobResult(job)).toMatchObject({ code: 'registry_blocked' });
    expect(hub.requests.filter((r) => r.startsWith('/api/v1/download') && r.includes('bad-hub'))).toEqual([]);
    expect(fs.existsSync(managed('bad-hub'))).toBe(false);
    expect(lock().skills['bad-hub']).toBeUndefined();
  });
});
