/**
 * Imports a skill folder from a git repository: a shallow, hook-less, submodule-less checkout of
 * one branch, tag or commit into a private staging folder, run with argument arrays, an empty HOME,
 * no system or global config and a protocol allowlist. https hosts pass the SSRF guard first and
 * git is pinned to the checked address (curl's resolve list) with redirects off.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AppError, isAppError } from '@/lib/core/errors';
import { cleanPath } from '../../core/child-env';
import { type RunResult, runProcess } from '../../core/process';
import { COMMIT_RE, parseGitRemote, validateRef, validateSubdir } from './git-input';
import { checkUrlTarget, type Resolver, type SsrfPolicy } from './ssrf';

export interface GitFetchInput {
  url: string;
  ref?: string;
  subdir?: string;
}

export interface GitFetchPolicy {
  /** Allow file:// URLs and absolute paths (tests, admins). */
  allowLocal: boolean;
  ssrf: SsrfPolicy;
  /** Per git command; default 120 s. */
  timeoutMs?: number;
  resolve?: Resolver;
}

export interface GitFetchResult {
  /** The skill folder inside destDir. */
  dir: string;
  commit: string;
}

const SKILL_MARKERS = ['SKILL.md', 'skill.md', 'skills.md', 'SKILL.MD'];
const STDERR_TAIL = 2000;

interface GitRunner {
  run(args: string[], cwd?: string): Promise<RunResult>;
}

function gitRunner(env: Record<string, string>, config: string[], timeoutMs: number, signal?: AbortSignal): GitRunner {
  return {
    run: (args, cwd) =>
      runProcess('git', [...config, ...args], { env: env as NodeJS.ProcessEnv, cwd, timeoutMs, signal, maxOutputBytes: 4 * 1024 * 1024 }).catch(
        (e: unknown) => {
          const why = isAppError(e) ? e.message : String(e);
          throw new AppError('git_failed', `Could not run git: ${why}`);
        },
      ),
  };
}

const tail = (text: string) =>
  text
    .replace(/[^\x20-\x7e\n\t]/g, '')
    .trim()
    .slice(-STDERR_TAIL);

function check(result: RunResult, what: string, ref?: string): RunResult {
  if (result.timedOut) throw new AppError('git_failed', `git ${what} timed out.`);
  if (result.aborted) throw new AppError('git_failed', `git ${what} was cancelled.`);
  if (result.code === 0) return result;
  const stderr = tail(result.stderr);
  if (ref && /not found in upstream|couldn't find remote ref|not our ref|unadvertised object|no such remote ref|invalid refspec/i.test(stderr)) {
    throw new AppError('not_found', `The repository has no branch, tag or commit "${ref}".`, { details: { ref, stderr } });
  }
  throw new AppError('git_failed', `git ${what} failed: ${stderr.split('\n').pop() ?? ''}`, { details: { stderr, exitCode: result.code } });
}

/** Symbolic links anywhere in the (sub)tree of HEAD, from the git tree itself (core.symlinks=false writes them as files). */
async function symlinksInTree(git: GitRunner, checkout: string, subdir: string): Promise<string[]> {
  const args = ['ls-tree', '-r', '-z', '--full-tree', 'HEAD'];
  const result = check(await git.run(args, checkout), 'ls-tree');
  if (result.truncated) throw new AppError('invalid_skill', 'The repository tree is too large to inspect.');
  const prefix = subdir ? `${subdir}/` : '';
  return result.stdout
    .split('\0')
    .filter(Boolean)
    .map((line) => ({ mode: line.slice(0, line.indexOf(' ')), file: line.slice(line.indexOf('\t') + 1) }))
    .filter((e) => e.mode === '120000' && e.file.startsWith(prefix))
    .map((e) => e.file);
}

type Remote = ReturnType<typeof parseGitRemote>;

/** Hook-less, symlink-less, redirect-less git; an https host passes the SSRF guard and git is pinned to its checked address. */
async function gitConfig(remote: Remote, policy: GitFetchPolicy): Promise<string[]> {
  const config = [
    '-c',
    `protocol.file.allow=${remote.kind === 'local' ? 'always' : 'never'}`,
    '-c',
    'core.hooksPath=/dev/null',
    '-c',
    'core.symlinks=false',
    '-c',
    'core.fsmonitor=false',
    '-c',
    'submodule.recurse=false',
    '-c',
    'http.followRedirects=false',
    '-c',
    'credential.helper=',
    '-c',
    'init.defaultBranch=main',
  ];
  if (remote.kind === 'https') {
    const target = await checkUrlTarget(remote.url, policy.ssrf, policy.resolve);
    const address = target.family === 6 ? `[${target.address}]` : target.address;
    config.push('-c', `http.curloptResolve=${target.host}:${target.port}:${address}`);
  }

  return config;
}

function gitEnv(home: string, kind: Remote['kind']): Record<string, string> {
  return {
    PATH: cleanPath(process.env.PATH),
    HOME: home,
    XDG_CONFIG_HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_ALLOW_PROTOCOL: kind === 'local' ? 'file' : 'https',
    LC_ALL: 'C',
  };
}

export interface RemoteRef {
  /** refs/heads/main, refs/tags/v1.2.0, HEAD */
  name: string;
  commit: string;
}

/**
 * The refs a remote advertises (one `git ls-remote`, no clone): `tags` lists every tag (peeled to
 * its commit), otherwise only `ref` (default HEAD). The cheap "did it change" check of git sources.
 */
export async function listRemoteRefs(url: string, opts: { ref?: string; tags?: boolean }, policy: GitFetchPolicy, signal?: AbortSignal): Promise<RemoteRef[]> {
  const remote = parseGitRemote(url, policy.allowLocal);
  const ref = validateRef(opts.ref);
  const config = await gitConfig(remote, policy);
  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'skilldock-git-home-'));
  try {
    const git = gitRunner(gitEnv(home, remote.kind), config, policy.timeoutMs ?? 60_000, signal);
    const args = opts.tags ? ['ls-remote', '--tags', '--', remote.url] : ['ls-remote', '--', remote.url, ref || 'HEAD'];
    const out = check(await git.run(args), 'ls-remote', ref);
    if (out.truncated) throw new AppError('git_failed', 'The repository advertises too many refs to read.');
    const peeled = new Map<string, string>();
    const refs: RemoteRef[] = [];
    for (const line of out.stdout.split('\n')) {
      const [commit, name] = line.trim().split('\t');
      if (!commit || !name || !COMMIT_RE.test(commit)) continue;
      if (name.endsWith('^{}')) peeled.set(name.slice(0, -3), commit);
      else refs.push({ name, commit });
    }
    return refs.map((r) => ({ ...r, commit: peeled.get(r.name) ?? r.commit }));
  } finally {
    await fs.rm(home, { recursive: true, force: true });
  }
}

/**
 * Clones `input.url` at `input.ref` (default branch when absent) into `<destDir>/repo` and returns
 * the skill folder (`subdir`, or the repository root) and the commit. `.git` is removed.
 */
export async function fetchGitSkill(input: GitFetchInput, destDir: string, policy: GitFetchPolicy, signal?: AbortSignal): Promise<GitFetchResult> {
  const remote = parseGitRemote(input.url, policy.allowLocal);
  const ref = validateRef(input.ref);
  const subdir = validateSubdir(input.subdir);

  const config = await gitConfig(remote, policy);
  await fs.mkdir(destDir, { recursive: true });
  const checkout = path.join(destDir, 'repo');
  // The failure path removes the checkout, so it must be ours alone.
  if (await fs.lstat(checkout).catch(() => null)) throw new AppError('conflict', `${checkout} already exists; use a fresh staging folder.`);
  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'skilldock-git-home-'));
  const env = gitEnv(home, remote.kind);
  const git = gitRunner(env, config, policy.timeoutMs ?? 120_000, signal);
  try {
    if (ref && COMMIT_RE.test(ref)) {
      check(await git.run(['init', '-q', '--template=', '--', checkout]), 'init');
      check(await git.run(['fetch', '-q', '--depth', '1', '--no-tags', '--', remote.url, ref], checkout), 'fetch', ref);
      check(await git.run(['checkout', '-q', '--detach', 'FETCH_HEAD'], checkout), 'checkout');
    } else {
      const branch = ref ? ['--branch', ref] : [];
      const args = [
        'clone',
        '-q',
        '--depth',
        '1',
        '--no-tags',
        '--single-branch',
        '--no-recurse-submodules',
        '--template=',
        ...branch,
        '--',
        remote.url,
        checkout,
      ];
      check(await git.run(args), 'clone', ref);
    }
    const commit = check(await git.run(['rev-parse', '--verify', 'HEAD^{commit}'], checkout), 'rev-parse').stdout.trim();
    if (!COMMIT_RE.test(commit)) throw new AppError('git_failed', `git reported an unexpected commit id "${commit.slice(0, 80)}".`);
    if (ref && COMMIT_RE.test(ref) && commit !== ref) {
      throw new AppError('git_failed', `Checked out ${commit} instead of the requested commit ${ref}.`);
    }
    const links = await symlinksInTree(git, checkout, subdir);
    if (links.length > 0) {
      throw new AppError('unsafe_archive', `The skill contains symbolic links (${links.slice(0, 5).join(', ')}); skills hold regular files only.`, {
        details: { symlinks: links.slice(0, 50) },
      });
    }
    await fs.rm(path.join(checkout, '.git'), { recursive: true, force: true });

    const dir = subdir ? path.join(checkout, ...subdir.split('/')) : checkout;
    const st = await fs.lstat(dir).catch(() => null);
    if (!st?.isDirectory()) {
      throw new AppError('not_found', `The repository has no folder "${subdir}".`, { details: { subdir, commit } });
    }
    const names = new Set(await fs.readdir(dir));
    if (!SKILL_MARKERS.some((m) => names.has(m))) {
      throw new AppError('missing_skill_md', `${subdir ? `The folder "${subdir}"` : 'The repository root'} has no SKILL.md.`, {
        details: { subdir, commit },
        hint: 'Point the import at the folder that holds SKILL.md.',
      });
    }
    return { dir, commit };
  } catch (e) {
    await fs.rm(checkout, { recursive: true, force: true });
    throw e;
  } finally {
    await fs.rm(home, { recursive: true, force: true });
  }
}
