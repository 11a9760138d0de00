import fs from 'node:fs';
import path from 'node:path';
import type { AppDb } from '@/db/client';
import { githubPackages } from '@/db/schema';
import { AppError } from '@/lib/core/errors';
import { fsyncDirSync, swapSymlinkSync, writeFileAtomicSync } from '../../core/atomic-fs';
import { isAppError } from '../../core/errors';
import { runProcess } from '../../core/process';
import type { InstallManifest, RetainedVersion } from '../types';
import { binOwner, binTarget, type GithubLayout, packageDir } from './layout';

export const MANIFEST_FILE = '.install.json';

export function readManifest(versionDir: string): InstallManifest | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(versionDir, MANIFEST_FILE), 'utf8')) as InstallManifest;
  } catch {
    return null;
  }
}

/**
 * Moves a staged folder to `<pkg>/<version>/` with one rename. An existing folder is
 * reused only when it holds the same asset (same sha256); returns whether the folder is new.
 */
export function commitVersion(l: GithubLayout, stageDir: string, manifest: InstallManifest): { dir: string; created: boolean } {
  const pkg = packageDir(l, manifest.name);
  fs.mkdirSync(pkg, { recursive: true, mode: 0o755 });
  const dir = path.join(pkg, manifest.version);
  writeFileAtomicSync(path.join(stageDir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  for (const f of fs.readdirSync(stageDir)) {
    const fd = fs.openSync(path.join(stageDir, f), 'r');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
  }
  fsyncDirSync(stageDir);
  if (fs.existsSync(dir)) {
    const existing = readManifest(dir);
    if (existing?.sha256 === manifest.sha256) return { dir, created: false };
    throw new AppError('conflict', `${manifest.name} ${manifest.tag} is already on disk from another asset (sha256 ${existing?.sha256 ?? 'unknown'}).`, {
      hint: 'Uninstall the package, or repair it, then install again.',
    });
  }
  fs.renameSync(stageDir, dir);
  fsyncDirSync(pkg);
  return { dir, created: true };
}

/** A scrubbed environment: no secrets of the service reach the tool under test. */
const SMOKE_ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C', HOME: '/nonexistent' } as unknown as NodeJS.ProcessEnv;

/** Runs the primary binary (`--version` or the configured arguments) before it goes live. */
export async function smokeTest(binary: string, args: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<string> {
  let res: Awaited<ReturnType<typeof runProcess>>;
  try {
    res = await runProcess(binary, args, { timeoutMs, signal, env: SMOKE_ENV, maxOutputBytes: 64 * 1024 });
  } catch (e) {
    // exec fails with ENOENT when the file exists but its loader (PT_INTERP) does not.
    if (isAppError(e) && e.code === 'not_found') {
      throw new AppError('libc_mismatch', `${path.basename(binary)} cannot start here: its loader is missing.`, {
        hint: 'Choose a musl or static asset for this system.',
      });
    }
    throw e;
  }
  const output = (res.stdout.trim() || res.stderr.trim()).split('\n')[0]?.slice(0, 300) ?? '';
  if (res.code === 0 && !res.timedOut) return output;
  const loaderError = res.code === 127 || res.code === 126 || /not found|No such file|cannot execute/i.test(res.stderr);
  const what = res.timedOut ? `did not finish within ${Math.round(timeoutMs / 1000)} s` : `exited with ${res.code ?? res.signal}`;
  throw new AppError(
    loaderError ? 'libc_mismatch' : 'smoke_test_failed',
    `The smoke test \`${path.basename(binary)} ${args.join(' ')}\` ${what}: ${(res.stderr || res.stdout).trim().slice(0, 500)}`,
    {
      hint: loaderError
        ? 'The binary cannot start on this system (wrong libc or loader): choose a musl or static asset.'
        : 'Set other smoke-test arguments for this package, or turn the smoke test off if the tool has no --version.',
    },
  );
}

/** Binaries this install would take from another package or from a file that is not ours. */
export function binaryConflicts(l: GithubLayout, name: string, binaries: readonly string[]): { binary: string; owner: string }[] {
  const out: { binary: string; owner: string }[] = [];
  for (const b of binaries) {
    const p = path.join(l.bin, b);
    const owner = binOwner(l, b);
    if (owner && owner !== name) out.push({ binary: b, owner: `package ${owner}` });
    else if (!owner && fs.existsSync(p)) out.push({ binary: b, owner: 'a file not installed by Skilldock' });
    else if (!owner) {
      try {
        fs.lstatSync(p);
        out.push({ binary: b, owner: 'a link not installed by Skilldock' });
      } catch {
        /* free */
      }
    }
  }
  return out;
}

/**
 * Makes a version current: `current` switched by rename, then each bin/ link; links of
 * binaries the new version no longer has are removed when they are ours.
 */
export function activateVersion(l: GithubLayout, name: string, version: string, binaries: readonly string[], previousBinaries: readonly string[] = []): void {
  swapSymlinkSync(path.join(packageDir(l, name), 'current'), version);
  for (const b of binaries) swapSymlinkSync(path.join(l.bin, b), binTarget(name, b));
  for (const b of previousBinaries) if (!binaries.includes(b) && binOwner(l, b) === name) fs.rmSync(path.join(l.bin, b), { force: true });
}

/** The rollback entry of an installed version. */
export const retainedOf = (m: InstallManifest): RetainedVersion => ({
  version: m.version,
  tag: m.tag,
  installedAt: m.installedAt,
  sha256: m.sha256,
  checksumSource: m.checksumSource,
});

/** The database record of a version's manifest (the record mirrors `.install.json`). */
export function manifestRow(m: InstallManifest, retained: RetainedVersion[]): typeof githubPackages.$inferInsert {
  return {
    name: m.name,
    repo: m.repo,
    tag: m.tag,
    version: m.version,
    channel: m.channel,
    releaseId: m.releaseId,
    publishedAt: m.publishedAt ? new Date(m.publishedAt) : null,
    prerelease: m.prerelease,
    assetId: m.assetId,
    assetName: m.assetName,
    assetUrl: m.assetUrl,
    assetSize: m.assetSize,
    sha256: m.sha256,
    checksumSource: m.checksumSource,
    binaries: m.binaries,
    retained,
    overrides: m.overrides,
    smokeOutput: m.smokeOutput,
    installedAt: new Date(m.installedAt),
    installedBy: m.installedBy,
    problem: null,
  };
}

/** Writes the record of the current version, retrying after 100 ms, 500 ms and 1 s. */
export async function writeRecord(db: AppDb, m: InstallManifest, retained: RetainedVersion[]): Promise<void> {
  const row = manifestRow(m, retained);
  for (const wait of [100, 500, 1000, -1]) {
    try {
      await db.insert(githubPackages).values(row).onConflictDoUpdate({ target: githubPackages.name, set: row });
      return;
    } catch (e) {
      if (wait < 0) throw e;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** Keeps the newest `keep` earlier versions and removes the other version folders. */
export function retain(
  l: GithubLayout,
  name: string,
  current: string,
  previous: RetainedVersion | null,
  old: RetainedVersion[],
  keep: number,
): RetainedVersion[] {
  const list = [
    ...(previous && previous.version !== current ? [previous] : []),
    ...old.filter((r) => r.version !== current && r.version !== previous?.version),
  ].slice(0, keep);
  const alive = new Set([current, ...list.map((r) => r.version)]);
  const dir = packageDir(l, name);
  for (const entry of fs.readdirSync(dir)) {
    if (entry !== 'current' && !entry.startsWith('current.') && !alive.has(entry)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  }
  return list;
}
