// One pass of the folder sync: the agent's effective skills from the server, each materialised as a
// folder of `root`, folders Skilldock wrote for skills the agent no longer has removed, and folders
// it did not write never touched. The skills to write are read in bundles (many skills and their
// bytes per request), staged in parallel, made durable with one barrier, then swapped in one by one.
// A state file remembers the version, each skill's content hash and folder digest, and the stat
// signature (manifest.ts) of every folder written, so:
// - a pass that finds the version unchanged (304) checks one readdir and a marker stat per folder;
// - a pass after a change skips a skill whose content hash is unchanged and whose folder's signature
//   still matches, and reads and compares only the others (a file edited by hand is restored).
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fsyncDir, readJsonFile, writeJsonAtomic } from '../../core/atomic-fs';
import { mapLimit, pipelined } from '../../core/concurrency';
import { isAppError } from '../../core/errors';
import { MARKER_FILE, type SkillFolder } from '../access';
import { folderSignature, markerStamp, otherStamps, sameFolders, signatureOf, stampOf } from './manifest';
import {
  commitStaged,
  discardStaged,
  folderDigest,
  folderDigestOnDisk,
  listManagedFolders,
  readMarker,
  recoverLeftovers,
  type StagedFolder,
  stageSkillFolder,
  trashSkillFolder,
} from './materialise';
import { normalMode } from './paths';
import { FILE_PARALLEL, makeDurable } from './stage';
import { type BundleSkill, EXIT, type GatewayClient, type RemoteSkill, SyncFailure } from './sync-client';

export const STATE_FILE = '.skilldock-sync.json';
const STATE_FORMAT = 3;
/** Skills per bundle request; bundles read ahead of the writers (in flight or waiting); bundles written at a time. */
const BUNDLE_SKILLS = 25;
const BUNDLE_AHEAD = 4;
const BUNDLE_WRITERS = 2;
/** Skills of one bundle compared and staged at a time. */
const SKILLS_PARALLEL = 8;

interface KeptSkill {
  digest: string;
  contentHash: string | null;
  /** markerStamp and folderSignature of the folder as written; null when too fresh to trust (compared by content instead). */
  stamp: string | null;
  sig: string | null;
}

interface SyncState {
  format: typeof STATE_FORMAT;
  url: string;
  agentId: string;
  version: string;
  etag: string | null;
  skills: Record<string, KeptSkill>;
  /** Folders and symlinks of the root that are not ours, with their marker stamp. */
  others: Record<string, string>;
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

async function readState(root: string, client: GatewayClient): Promise<SyncState | null> {
  try {
    const s = (await readJsonFile(path.join(root, STATE_FILE))) as SyncState | null;
    return s?.format === STATE_FORMAT && s.url === client.base && s.agentId === client.agentId && typeof s.version === 'string' ? s : null;
  } catch {
    return null;
  }
}

/** The bytes a skill folder should hold, from a bundle (a file sent without its bytes is read alone). */
async function folderOf(client: GatewayClient, b: BundleSkill): Promise<SkillFolder> {
  const files = await mapLimit(b.files, FILE_PARALLEL, async (f) => ({
    path: f.path,
    mode: normalMode(f.mode ?? 0o644),
    data: f.contentBase64 !== null ? Buffer.from(f.contentBase64, 'base64') : await client.file(b.name, f.path),
  }));
  return { name: b.name, digest: folderDigest(files), files };
}

/** The state entry of a folder now in place; null when it cannot be signed (it is compared in full next time). */
function keptOf(root: string, name: string, digest: string, contentHash: string | null): KeptSkill | null {
  const stamp = markerStamp(root, name);
  const sig = folderSignature(root, name);
  if (!stamp || !sig) return null;
  return { digest, contentHash, stamp: stamp.fresh ? null : stamp.id, sig: sig.fresh ? null : sig.id };
}

function keptFromStaged(s: StagedFolder, digest: string, contentHash: string, visible: number): KeptSkill {
  const marker = s.entries.find((e) => e.rel === MARKER_FILE) as StagedFolder['entries'][number];
  const stamp = stampOf(marker.st, visible);
  const sig = signatureOf(s.entries, visible);
  return { digest, contentHash, stamp: stamp.fresh ? null : stamp.id, sig: sig.fresh ? null : sig.id };
}

/** The folders recorded without a marker stamp still hold our marker with the recorded digest; their stamps are taken again. */
async function markersHold(root: string, state: SyncState, names: string[]): Promise<boolean> {
  if (!names.length) return true;
  for (const n of names) if ((await readMarker(root, n))?.digest !== state.skills[n]?.digest) return false;
  let restamped = false;
  for (const n of names) {
    const st = markerStamp(root, n);
    const kept = state.skills[n] as KeptSkill;
    if (st && !st.fresh) [kept.stamp, restamped] = [st.id, true];
  }
  if (restamped) await writeJsonAtomic(path.join(root, STATE_FILE), state);
  return true;
}

export interface PassOptions {
  /** Report what would change and change nothing. */
  dryRun?: boolean;
}

/** One sync pass of `root` against the agent's effective skills. */
export async function syncPass(client: GatewayClient, root: string, opts: PassOptions = {}): Promise<PassResult> {
  const dry = !!opts.dryRun;
  // A check compares everything; a sync trusts what its last pass recorded while the version holds.
  const state = dry ? null : await readState(root, client);
  // Asked first, so the server answers while the folder is looked at.
  const asked = client.skills(state?.etag ?? null);
  asked.catch(() => undefined);
  let unstamped: string[] | false = false;
  if (!dry) {
    await fsp.mkdir(root, { recursive: true });
    await recoverLeftovers(root);
    if (state) unstamped = sameFolders(root, state.skills, state.others);
  }
  const list = await asked;
  if (!list && state && unstamped && (await markersHold(root, state, unstamped))) return { version: state.version, unchanged: true, changes: [] };
  const current = list ?? (await client.skills(null));
  if (!current) throw new SyncFailure('The server answered 304 to a request without If-None-Match.', EXIT.failed);
  const { ours, foreign } = await listManagedFolders(root);

  const changes: Change[] = [];
  const wanted = new Map<string, RemoteSkill>(current.skills.map((s) => [s.name, s]));
  const skills: Record<string, KeptSkill> = {};
  let unsigned = false;
  const keep = (name: string, digest: string, contentHash: string | null) => {
    const k = keptOf(root, name, digest, contentHash);
    if (k) skills[name] = k;
    else unsigned = true;
  };
  const toRead: string[] = [];
  for (const skill of wanted.values()) {
    const { name } = skill;
    if (foreign.has(name)) {
      changes.push({ kind: 'blocked', name, detail: `${path.join(root, name)} was not written by Skilldock; it is left alone` });
      continue;
    }
    const kept = state?.skills[name];
    const marker = ours.get(name);
    // The same bytes on the server, and on disk by signature (or, recorded too fresh, by content).
    if (marker && kept && skill.contentHash && kept.contentHash === skill.contentHash && kept.digest === marker.digest) {
      if (kept.sig !== null && kept.stamp !== null && folderSignature(root, name)?.id === kept.sig) {
        skills[name] = kept;
        continue;
      }
      if (kept.sig === null && (await folderDigestOnDisk(root, name)) === kept.digest) {
        keep(name, kept.digest, kept.contentHash);
        continue;
      }
    }
    toRead.push(name);
  }

  const blocked = (name: string, e: unknown) => {
    if (e instanceof SyncFailure && e.exitCode === EXIT.notFound) {
      // The skill left the agent's list while it was read: the next pass sees the new version.
      changes.push({ kind: 'blocked', name, detail: 'it changed on the server while it was read; it is read again on the next pass' });
    } else if (isAppError(e)) changes.push({ kind: 'blocked', name, detail: e.message });
    else throw e;
  };
  const staged: { s: StagedFolder; digest: string; contentHash: string; change: Change }[] = [];
  const trash: string[] = [];
  // Swapped in (or removed by a failed swap): nothing of theirs is left to discard.
  const committed = new Set<StagedFolder>();
  try {
    const batches: string[][] = [];
    for (let i = 0; i < toRead.length; i += BUNDLE_SKILLS) batches.push(toRead.slice(i, i + BUNDLE_SKILLS));
    type Fetched = { ok: true; bundle: Awaited<ReturnType<GatewayClient['bundle']>> } | { ok: false; error: unknown };
    // Bundles are read ahead while earlier ones are written, so the two overlap.
    await pipelined(
      batches,
      { ahead: BUNDLE_AHEAD, consumers: BUNDLE_WRITERS },
      (names): Promise<Fetched> =>
        client.bundle(names).then(
          (bundle) => ({ ok: true, bundle }),
          (error: unknown) => ({ ok: false, error }),
        ),
      async (fetched, names) => {
        if (!fetched.ok) {
          for (const n of names) blocked(n, fetched.error);
          return;
        }
        const { bundle } = fetched;
        for (const n of bundle.missing) blocked(n, new SyncFailure('gone', EXIT.notFound));
        await mapLimit(bundle.skills, SKILLS_PARALLEL, async (b) => {
          const { name } = b;
          try {
            const folder = await folderOf(client, b);
            const marker = ours.get(name);
            let byHand = false;
            if (marker?.digest === folder.digest) {
              if ((await folderDigestOnDisk(root, name)) === folder.digest) {
                if (!dry) keep(name, folder.digest, b.contentHash);
                return;
              }
              byHand = true;
            }
            const change: Change = {
              kind: marker ? 'updated' : 'added',
              name,
              ...(byHand ? { detail: dry ? 'its files differ from what Skilldock wrote' : 'its files were changed by hand; restored' } : {}),
            };
            const s = dry ? null : await stageSkillFolder(root, folder, { force: byHand });
            if (s) staged.push({ s, digest: folder.digest, contentHash: b.contentHash, change });
            else changes.push(change);
          } catch (e) {
            blocked(name, e);
          }
        });
      },
    );
    if (!dry) {
      await makeDurable(
        root,
        staged.map((x) => x.s),
      );
      await mapLimit(staged, FILE_PARALLEL, async (x) => {
        try {
          // Signed from the stats taken as it was written: nobody but this pass could touch it before it is visible.
          const visible = Date.now();
          const old = await commitStaged(root, x.s);
          committed.add(x.s);
          if (old) trash.push(old);
          changes.push(x.change);
          skills[x.s.name] = keptFromStaged(x.s, x.digest, x.contentHash, visible);
        } catch (e) {
          committed.add(x.s);
          blocked(x.s.name, e);
        }
      });
    }
    for (const name of ours.keys()) {
      if (wanted.has(name)) continue;
      if (!dry) {
        const t = await trashSkillFolder(root, name);
        if (t) trash.push(t);
      }
      changes.push({ kind: 'removed', name });
    }
    if (trash.length) await fsyncDir(root);
  } finally {
    await mapLimit(
      staged.filter((x) => !committed.has(x.s)),
      FILE_PARALLEL,
      (x) => discardStaged(x.s),
    );
    await mapLimit(trash, FILE_PARALLEL, (t) => fsp.rm(t, { recursive: true, force: true }));
  }
  changes.sort((a, b) => a.name.localeCompare(b.name));
  if (dry) return { version: current.version, unchanged: false, changes };
  if (!unsigned && !changes.some((c) => c.kind === 'blocked')) {
    const others = otherStamps(root, foreign);
    const next: SyncState = { format: STATE_FORMAT, url: client.base, agentId: client.agentId, version: current.version, etag: current.etag, skills, others };
    await writeJsonAtomic(path.join(root, STATE_FILE), next);
  } else await fsp.rm(path.join(root, STATE_FILE), { force: true });
  return { version: current.version, unchanged: false, changes };
}
