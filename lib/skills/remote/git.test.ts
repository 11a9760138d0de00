import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '@/lib/core/errors';
import { fetchGitSkill, type GitFetchPolicy } from './git';

let root: string;
let bare: string;
let work: string;
let sha1: string;
let sha2: string;
let dest: string;
let n = 0;

const gitEnv = (): Record<string, string | undefined> => ({
  PATH: process.env.PATH,
  HOME: root,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  LC_ALL: 'C',
});
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Skill Test', '-c', 'user.email=test@example.invalid', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    env: gitEnv() as NodeJS.ProcessEnv,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(work, rel)), { recursive: true });
  fs.writeFileSync(path.join(work, rel), text);
};
const skillMd = (name: string, v: string) => `---\nname: ${name}\ndescription: ${name} skill, ${v}.\n---\n# ${name} ${v}\n`;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-git-'));
  bare = path.join(root, 'origin.git');
  work = path.join(root, 'work');
  git(root, 'init', '-q', '--bare', bare);
  git(root, 'clone', '-q', bare, work);
  write('README.md', '# skills\n');
  write('skills/demo/SKILL.md', skillMd('demo', 'v1'));
  write('skills/demo/scripts/run.sh', '#!/bin/sh\necho v1\n');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'first');
  sha1 = git(work, 'rev-parse', 'HEAD');
  git(work, 'tag', 'v1.0.0');
  write('skills/demo/SKILL.md', skillMd('demo', 'v2'));
  write('skills/other/SKILL.md', skillMd('other', 'v1'));
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'second');
  sha2 = git(work, 'rev-parse', 'HEAD');
  git(work, 'checkout', '-q', '-b', 'feature/extra');
  write('skills/demo/extra.md', 'extra\n');
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'extra');
  git(work, 'checkout', '-q', '-b', 'with-link', 'main');
  fs.symlinkSync('../../README.md', path.join(work, 'skills/demo/readme-link'));
  git(work, 'add', '-A');
  git(work, 'commit', '-q', '-m', 'symlink');
  git(work, 'push', '-q', 'origin', 'main', 'feature/extra', 'with-link', 'v1.0.0');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
beforeEach(() => {
  dest = path.join(root, `stage-${++n}`);
});

const local: GitFetchPolicy = { allowLocal: true, ssrf: { allowedHosts: [] } };
const read = (dir: string, rel: string) => fs.readFileSync(path.join(dir, rel), 'utf8');

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return { code: e.code, message: e.message };
    return { code: `unexpected: ${(e as Error).message}`, message: '' };
  }
  throw new Error('expected the import to fail');
}

describe('fetchGitSkill', () => {
  it('imports the default branch, a subfolder, without .git', async () => {
    const r = await fetchGitSkill({ url: bare, subdir: 'skills/demo' }, dest, local);
    expect(r.commit).toBe(sha2);
    expect(r.dir).toBe(path.join(dest, 'repo', 'skills', 'demo'));
    expect(read(r.dir, 'SKILL.md')).toContain('demo v2');
    expect(read(r.dir, 'scripts/run.sh')).toContain('echo v1');
    expect(fs.existsSync(path.join(dest, 'repo', '.git'))).toBe(false);
    expect(fs.existsSync(path.join(r.dir, 'extra.md'))).toBe(false);
  });

  it('imports by tag, by branch and by commit sha (file:// URL too)', async () => {
    const tag = await fetchGitSkill({ url: bare, ref: 'v1.0.0', subdir: 'skills/demo' }, dest, local);
    expect(tag.commit).toBe(sha1);
    expect(read(tag.dir, 'SKILL.md')).toContain('demo v1');

    const branch = await fetchGitSkill({ url: `file://${bare}`, ref: 'feature/extra', subdir: 'skills/demo/' }, `${dest}-b`, local);
    expect(read(branch.dir, 'extra.md')).toBe('extra\n');

    const commit = await fetchGitSkill({ url: bare, ref: sha1, subdir: 'skills/demo' }, `${dest}-c`, local);
    expect(commit.commit).toBe(sha1);
    expect(read(commit.dir, 'SKILL.md')).toContain('demo v1');
    expect(fs.existsSync(path.join(commit.dir, '..', 'other'))).toBe(false);
    expect(fs.existsSync(path.join(dest + '-c', 'repo', '.git'))).toBe(false);
  });

  it('reports a missing folder, a folder without SKILL.md and an unknown ref', async () => {
    expect((await failure(fetchGitSkill({ url: bare, subdir: 'skills/nope' }, dest, local))).code).toBe('not_found');
    expect(fs.existsSync(path.join(dest, 'repo'))).toBe(false);
    expect((await failure(fetchGitSkill({ url: bare }, `${dest}-root`, local))).code).toBe('missing_skill_md');
    expect((await failure(fetchGitSkill({ url: bare, ref: 'no-such-branch' }, `${dest}-ref`, local))).code).toBe('not_found');
    expect((await failure(fetchGitSkill({ url: bare, ref: 'f'.repeat(40) }, `${dest}-sha`, local))).code).toBe('not_found');
  });

  it('refuses a staging folder that already holds a checkout, leaving it untouched', async () => {
    fs.mkdirSync(path.join(dest, 'repo'), { recursive: true });
    fs.writeFileSync(path.join(dest, 'repo', 'keep.txt'), 'mine');
    expect((await failure(fetchGitSkill({ url: bare, subdir: 'skills/demo' }, dest, local))).code).toBe('conflict');
    expect(fs.readFileSync(path.join(dest, 'repo', 'keep.txt'), 'utf8')).toBe('mine');
  });

  it('refuses a skill that contains a symbolic link', async () => {
    const f = await failure(fetchGitSkill({ url: bare, ref: 'with-link', subdir: 'skills/demo' }, dest, local));
    expect(f.code).toBe('unsafe_archive');
    expect(f.message).toContain('skills/demo/readme-link');
    expect(fs.existsSync(path.join(dest, 'repo'))).toBe(false);
    // A symlink outside the imported folder does not matter.
    const other = await fetchGitSkill({ url: bare, ref: 'with-link', subdir: 'skills/other' }, `${dest}-o`, local);
    expect(read(other.dir, 'SKILL.md')).toContain('other v1');
  });

  it('refuses transport helpers, option-looking values, traversal and other transports before running git', async () => {
    const marker = path.join(root, 'pwned');
    const cases: [Parameters<typeof fetchGitSkill>[0], string][] = [
      [{ url: `ext::sh -c touch% ${marker}` }, 'validation'],
      [{ url: 'ext::sh' }, 'validation'],
      [{ url: '--upload-pack=touch /tmp/x' }, 'validation'],
      [{ url: '-oProxyCommand=x' }, 'validation'],
      [{ url: 'fd::3' }, 'validation'],
      [{ url: 'ssh://-oProxyCommand=x/repo' }, 'validation'],
      [{ url: 'git@github.com:owner/repo.git' }, 'validation'],
      [{ url: 'git://example.invalid/repo.git' }, 'validation'],
      [{ url: 'http://example.invalid/repo.git' }, 'validation'],
      [{ url: 'https://user:secret@example.invalid/repo.git' }, 'validation'],
      [{ url: 'https://example.invalid/repo.git?x=1' }, 'validation'],
      [{ url: `${bare}/../origin.git` }, 'validation'],
      [{ url: bare, ref: 'main..other' }, 'validation'],
      [{ url: bare, ref: '--upload-pack=x' }, 'validation'],
      [{ url: bare, ref: 'a b' }, 'validation'],
      [{ url: bare, subdir: '../x' }, 'validation'],
      [{ url: bare, subdir: 'skills/../../x' }, 'validation'],
      [{ url: bare, subdir: '/etc' }, 'validation'],
      [{ url: bare, subdir: '.git' }, 'validation'],
    ];
    for (const [input, code] of cases) {
      expect((await failure(fetchGitSkill(input, dest, local))).code, JSON.stringify(input)).toBe(code);
    }
    expect(fs.existsSync(marker)).toBe(false);
    expect(fs.existsSync(dest)).toBe(false);
  });

  it('refuses local repositories unless allowed', async () => {
    const strict: GitFetchPolicy = { allowLocal: false, ssrf: { allowedHosts: [] } };
    expect((await failure(fetchGitSkill({ url: `file://${bare}` }, dest, strict))).code).toBe('not_allowed');
    expect((await failure(fetchGitSkill({ url: bare }, dest, strict))).code).toBe('not_allowed');
    expect(fs.existsSync(dest)).toBe(false);
  });

  it('checks https hosts with the SSRF guard before running git', async () => {
    const strict: GitFetchPolicy = { allowLocal: false, ssrf: { allowedHosts: [] } };
    for (const url of ['https://169.254.169.254/repo.git', 'https://127.0.0.1/repo.git', 'https://localhost/repo.git', 'https://[::ffff:10.0.0.1]/r.git']) {
      expect((await failure(fetchGitSkill({ url }, dest, strict))).code, url).toBe('ssrf_blocked');
    }
    const listed: GitFetchPolicy = { allowLocal: false, ssrf: { allowedHosts: [], hostAllowlist: ['github.com'] } };
    expect((await failure(fetchGitSkill({ url: 'https://gitlab.example.invalid/o/r.git' }, dest, listed))).code).toBe('host_not_allowed');
    expect(fs.existsSync(dest)).toBe(false);
  });

  it('pins git to the address the guard checked', async () => {
    // Only 127.0.0.2 listens; without the pin, curl would resolve localhost to 127.0.0.1/::1 and never reach it.
    const seen: string[] = [];
    const server = net.createServer((s) => {
      seen.push(String(s.localAddress));
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.2', r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const policy: GitFetchPolicy = {
        allowLocal: false,
        ssrf: { allowedHosts: [`localhost:${port}`] },
        resolve: async () => [{ address: '127.0.0.2', family: 4 }],
      };
      const f = await failure(fetchGitSkill({ url: `https://localhost:${port}/owner/repo.git` }, dest, policy));
      expect(f.code).toBe('git_failed');
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((a) => a === '127.0.0.2')).toBe(true);
      expect(fs.existsSync(path.join(dest, 'repo'))).toBe(false);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
