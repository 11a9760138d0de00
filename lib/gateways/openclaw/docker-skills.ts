// Skill folders in a gateway container's managed skills folder. The Engine API writes files
// (putArchive) but cannot rename or delete them, so the swap runs the container's own /bin/mv and
// /bin/rm by absolute path, with argument arrays. That is acceptable here, unlike in a Skilldock
// sandbox: the gateway container is the operator's own, running the operator's programs already.
// A folder is staged whole as `.skilldock-staging-<name>-<rand>`, then swapped in: with one
// exchange where the container's mv has `--exchange` (renameat2), else with two renames (old aside,
// new in) like a local gateway, so a reader sees the old folder, no folder, or the new one; never a
// mix. Leftovers of an interrupted put are repaired before the first change.
import { randomBytes } from 'node:crypto';
import path from 'node:path/posix';
import { AppError } from '../../core/errors';
import { buildTar, type TarEntry } from '../../sandbox/docker/tar';
import { type FolderMarker, MARKER_FILE, type SkillFolder } from '../access';
import { MARKER_WRITER, type MarkerFile } from '../folder/materialise';
import { checkFolder, checkFolderName, LEFTOVER_RE, normalMode, OLD_PREFIX, STAGING_PREFIX, TRASH_PREFIX } from '../folder/paths';
import { type ContainerExecResult, execInContainer, type GatewayDocker } from './docker-exec';
import { type FolderScan, putContainerTar, scanFolder } from './docker-files';

export const MV = '/bin/mv';
export const RM = '/bin/rm';
const FS_TIMEOUT_MS = 60_000;

export interface ManagedDir {
  d: GatewayDocker;
  container: string;
  /** `<stateDir>/skills`, absolute inside the container. */
  dir: string;
}

const rand = () => randomBytes(6).toString('hex');

const foreignFolder = (m: ManagedDir, name: string) =>
  new AppError('conflict', `${path.join(m.dir, name)} in the gateway container ${m.container} exists and was not written by Skilldock, so it is left alone.`, {
    details: { container: m.container, root: m.dir, name },
    hint: 'Move or rename that folder, or remove the skill from the agent, then sync again.',
  });

async function run(m: ManagedDir, argv: string[]): Promise<ContainerExecResult> {
  const r = await execInContainer(m.d, m.container, { argv, timeoutMs: FS_TIMEOUT_MS, maxOutputBytes: 64 * 1024 });
  if (r.code === 126 || r.code === 127)
    throw new AppError('upstream_error', `The gateway container ${m.container} has no ${argv[0]}, which Skilldock needs to swap skill folders.`, {
      hint: 'Use a gateway image with coreutils (the official OpenClaw image has them).',
    });
  return r;
}

async function must(m: ManagedDir, argv: string[]): Promise<void> {
  const r = await run(m, argv);
  if (r.code !== 0)
    throw new AppError(
      'upstream_error',
      `${path.basename(argv[0] as string)} failed in the gateway container ${m.container}: ${r.stderr.trim().slice(0, 500) || `exit ${r.code}`}`,
    );
}

/** Renames `from` to `to` inside `m.dir` (one rename(2): a file put in place replaces the old one atomically). */
export const rename = (m: ManagedDir, from: string, to: string) => must(m, [MV, '-T', '--', path.join(m.dir, from), path.join(m.dir, to)]);
export const removeTree = (m: ManagedDir, name: string) => must(m, [RM, '-rf', '--', path.join(m.dir, name)]);

function parseMarker(name: string, bytes: Buffer | undefined): FolderMarker | null {
  if (!bytes) return null;
  try {
    const v = JSON.parse(bytes.toString('utf8')) as Partial<MarkerFile>;
    if (v.writer !== MARKER_WRITER || v.name !== name || typeof v.digest !== 'string') return null;
    return { name, digest: v.digest };
  } catch {
    return null;
  }
}

/** Folders with a Skilldock marker (symlinks never count) and the other folders and symlinks; leftovers skipped. */
export function classify(scan: FolderScan | null): { ours: Map<string, FolderMarker>; foreign: Set<string> } {
  const ours = new Map<string, FolderMarker>();
  const foreign = new Set<string>();
  for (const [name, type] of scan?.entries ?? []) {
    if (LEFTOVER_RE.test(name) || (type !== 'dir' && type !== 'symlink')) continue;
    const marker = type === 'dir' ? parseMarker(name, scan?.markers.get(name)) : null;
    if (marker) ours.set(name, marker);
    else foreign.add(name);
  }
  return { ours, foreign };
}

async function scanManaged(m: ManagedDir): Promise<FolderScan | null> {
  const scan = await scanFolder(m.d, m.container, m.dir);
  if (scan && scan.rootType !== 'dir') throw new AppError('validation', `${m.dir} in the gateway container ${m.container} is not a folder.`);
  return scan;
}

export async function listManaged(m: ManagedDir) {
  return classify(await scanManaged(m));
}

/** Creates the managed folder when missing (owned by the container's user), then repairs leftovers. */
export async function prepareManaged(m: ManagedDir): Promise<void> {
  let scan = await scanManaged(m);
  if (!scan) {
    await putContainerTar(m.d, m.container, path.dirname(m.dir), buildTar([{ type: 'dir', name: path.basename(m.dir), mode: 0o755, mtime: new Date() }]));
    scan = await scanManaged(m);
  }
  for (const [entry, type] of scan?.entries ?? []) {
    const hit = LEFTOVER_RE.exec(entry);
    if (!hit) continue;
    const name = hit[2] as string;
    if (hit[1] === 'old' && type === 'dir' && !scan?.entries.has(name)) await rename(m, entry, name);
    else await removeTree(m, entry);
  }
}

function stagingTar(staging: string, folder: SkillFolder): Buffer {
  const now = new Date();
  const entries: TarEntry[] = [{ type: 'dir', name: staging, mode: 0o755, mtime: now }];
  const dirs = new Set<string>();
  for (const f of folder.files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const sub = parts.slice(0, i).join('/');
      if (dirs.has(sub)) continue;
      dirs.add(sub);
      entries.push({ type: 'dir', name: `${staging}/${sub}`, mode: 0o755, mtime: now });
    }
    entries.push({ type: 'file', name: `${staging}/${f.path}`, data: f.data, mode: normalMode(f.mode), mtime: now });
  }
  const marker: MarkerFile = { name: folder.name, digest: folder.digest, writer: MARKER_WRITER, writtenAt: now.toISOString() };
  entries.push({ type: 'file', name: `${staging}/${MARKER_FILE}`, data: Buffer.from(`${JSON.stringify(marker, null, 2)}\n`), mode: 0o644, mtime: now });
  return buildTar(entries);
}

/** Whether `<dir>/<name>` exists, and its marker when it is a real folder Skilldock wrote for that name. */
async function markerOf(m: ManagedDir, name: string): Promise<{ exists: boolean; marker: FolderMarker | null }> {
  const scan = await scanFolder(m.d, m.container, path.join(m.dir, name));
  if (!scan) return { exists: false, marker: null };
  return { exists: true, marker: scan.rootType === 'dir' ? parseMarker(name, scan.markers.get('')) : null };
}

/** Puts `folder` at `<dir>/<name>` whole; 'unchanged' when its marker names the same digest; `conflict` for a foreign folder. */
export async function putManaged(m: ManagedDir, folder: SkillFolder): Promise<'written' | 'unchanged'> {
  checkFolder(folder);
  const before = await markerOf(m, folder.name);
  if (before.exists && !before.marker) throw foreignFolder(m, folder.name);
  if (before.marker?.digest === folder.digest) return 'unchanged';
  const staging = `${STAGING_PREFIX}${folder.name}-${rand()}`;
  await putContainerTar(m.d, m.container, m.dir, stagingTar(staging, folder));
  try {
    if (before.exists) {
      const swapped = await run(m, [MV, '--exchange', '-T', '--', path.join(m.dir, staging), path.join(m.dir, folder.name)]);
      if (swapped.code !== 0) {
        const old = `${OLD_PREFIX}${folder.name}-${rand()}`;
        await rename(m, folder.name, old);
        try {
          await rename(m, staging, folder.name);
        } catch (e) {
          await rename(m, old, folder.name).catch(() => undefined);
          throw e;
        }
        await removeTree(m, old);
      }
    } else {
      const r = await run(m, [MV, '-T', '--', path.join(m.dir, staging), path.join(m.dir, folder.name)]);
      if (r.code !== 0) {
        if (/not empty|exists|directory/i.test(r.stderr)) throw foreignFolder(m, folder.name);
        throw new AppError('upstream_error', `mv failed in the gateway container ${m.container}: ${r.stderr.trim().slice(0, 500)}`);
      }
    }
  } finally {
    // After an exchange the staging name holds the old folder; after a failure, the new one.
    await removeTree(m, staging).catch(() => undefined);
  }
  const after = await markerOf(m, folder.name);
  if (after.marker?.digest !== folder.digest) throw foreignFolder(m, folder.name);
  return 'written';
}

/** Removes `<dir>/<name>` when Skilldock wrote it; 'absent' when it is not there; `conflict` when it is not ours. */
export async function removeManaged(m: ManagedDir, name: string): Promise<'removed' | 'absent'> {
  checkFolderName(name);
  const now = await markerOf(m, name);
  if (!now.exists) return 'absent';
  if (!now.marker) throw foreignFolder(m, name);
  const trash = `${TRASH_PREFIX}${name}-${rand()}`;
  await rename(m, name, trash);
  await removeTree(m, trash);
  return 'removed';
}
