// One pass of the folder sync: the agent's effective skills from the server, each materialised as a
// folder of `root` (skipped when its marker already names the same digest), folders Skilldock wrote
// for skills the agent no longer has removed, and folders it did not write never touched. A file
// whose bytes are already on disk (same path and sha256 in the folder it wrote) is not fetched.
// A state file remembers the version and digests of the last pass, so a pass that finds the version
// unchanged (304) and every marker in place reads nothing else.
import { createHash } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { readJsonFile, writeJsonAtomic } from '../../core/atomic-fs';
import { isAppError } from '../../core/errors';
import type { SkillFolder } from '../access';
import { folderDigest, folderDigestOnDisk, listManagedFolders, putSkillFolder, recoverLeftovers, removeSkillFolder } from './materialise';
import { normalMode } from './paths';
import { EXIT, type GatewayClient, type RemoteSkill, SyncFailure } from './sync-client';

export const STATE_FILE = '.skilldock-sync.json';
const CONCURRENCY = 8;

interface SyncState {
  url: string;
  agentId: string;
  version: string;
  etag: string | null;
  /** name → the folder digest written, and the server's content hash it came from (when reported). */
  skills: Record<string, { digest: string; contentHash: string | null }>;
}

export interface Change {
  kind: 'added' | 'updated' | 'removed' | 'blocked';
  name: string;
  detail?: string;
}

export interface PassResult {
  version: string;
  /** The server answered 304 and every folder was in place: nothing was read or written. */
  unchanged: boolean;
  changes: Change[];
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

async function readState(root: string, client: GatewayClient): Promise<SyncState | null> {
  try {
    const s = (await readJsonFile(path.join(root, STATE_FILE))) as SyncState | null;
    return s && s.url === client.base && s.agentId === client.agentId && typeof s.version === 'string' ? s : null;
  } catch {
    return null;
  }
}

/** The bytes a skill folder should hold: files already on disk with the listed sha256 are reused. */
async function buildFolder(client: GatewayClient, root: string, name: string, owned: boolean): Promise<SkillFolder> {
  const listed = await client.files(name);
  const files = await mapLimit(listed, CONCURRENCY, async (f) => {
    let data: Buffer | null = null;
    if (owned) {
      data = await fsp.readFile(path.join(root, name, f.path)).catch(() => null);
      if (data && sha256(data) !== f.sha256) data = null;
    }
    data ??= await client.file(name, f.path);
    return { path: f.path, mode: normalMode(f.mode ?? 0o644), data };
  });
  return { name, digest: folderDigest(files), files };
}

export interface PassOptions {
  /** Report what would change and change nothing. */
  dryRun?: boolean;
}

/** One sync pass of `root` against the agent's effective skills. */
export async function syncPass(client: GatewayClient, root: string, opts: PassOptions = {}): Promise<PassResult> {
  if (!opts.dryRun) {
    await fsp.mkdir(root, { recursive: true });
    await recoverLeftovers(root);
  }
  // A check compares everything; a sync trusts what its last pass recorded while the version holds.
  const state = opts.dryRun ? null : await readState(root, client);
  const { ours, foreign } = await listManagedFolders(root);
  const list = await client.skills(state?.etag ?? null);
  if (!list && state && inPlace(state, ours)) return { version: state.version, unchanged: true, changes: [] };
  const current = list ?? (await client.skills(null));
  if (!current) throw new SyncFailure('The server answered 304 to a request without If-None-Match.', EXIT.failed);

  const changes: Change[] = [];
  const wanted = new Map<string, RemoteSkill>(current.skills.map((s) => [s.name, s]));
  const nextState: SyncState = { url: client.base, agentId: client.agentId, version: current.version, etag: current.etag, skills: {} };
  await mapLimit([...wanted.values()], CONCURRENCY, async (skill) => {
    const { name } = skill;
    if (foreign.has(name)) {
      changes.push({ kind: 'blocked', name, detail: `${path.join(root, name)} was not written by Skilldock; it is left alone` });
      return;
    }
    const marker = ours.get(name);
    const kept = state?.skills[name];
    if (marker && kept && skill.contentHash && kept.contentHash === skill.contentHash && kept.digest === marker.digest) {
      nextState.skills[name] = kept;
      return;
    }
    try {
      const folder = await buildFolder(client, root, name, !!marker);
      nextState.skills[name] = { digest: folder.digest, contentHash: skill.contentHash ?? null };
      let byHand = false;
      if (marker?.digest === folder.digest) {
        if ((await folderDigestOnDisk(root, name)) === folder.digest) return;
        byHand = true;
      }
      if (!opts.dryRun) await putSkillFolder(root, folder, { force: byHand });
      changes.push({
        kind: marker ? 'updated' : 'added',
        name,
        ...(byHand ? { detail: opts.dryRun ? 'its files differ from what Skilldock wrote' : 'its files were changed by hand; restored' } : {}),
      });
    } catch (e) {
      if (e instanceof SyncFailure && e.exitCode === EXIT.notFound) {
        // The skill left the agent's list while it was read: the next pass sees the new version.
        changes.push({ kind: 'blocked', name, detail: 'it changed on the server while it was read; it is read again on the next pass' });
        return;
      }
      if (isAppError(e)) {
        changes.push({ kind: 'blocked', name, detail: e.message });
        return;
      }
      throw e;
    }
  });
  for (const name of ours.keys()) {
    if (wanted.has(name)) continue;
    if (!opts.dryRun) await removeSkillFolder(root, name);
    changes.push({ kind: 'removed', name });
  }
  changes.sort((a, b) => a.name.localeCompare(b.name));
  if (!opts.dryRun && !changes.some((c) => c.kind === 'blocked')) await writeJsonAtomic(path.join(root, STATE_FILE), nextState);
  else if (!opts.dryRun) await fsp.rm(path.join(root, STATE_FILE), { force: true });
  return { version: current.version, unchanged: false, changes };
}

/** Every skill of the last pass still has its folder with the same marker digest, and no folder of ours is extra. */
function inPlace(state: SyncState, ours: Map<string, { digest: string }>): boolean {
  const names = Object.keys(state.skills);
  if (names.length !== ours.size) return false;
  return names.every((n) => ours.get(n)?.digest === state.skills[n]?.digest);
}
