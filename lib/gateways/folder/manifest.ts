// What the folder sync remembers of the folders it wrote, to tell without reading a file whether
// anyone touched them since: the stat identity (inode, size, mtime and ctime in nanoseconds, mode)
// of every entry. Any write, chmod, rename, replacement or added file changes a ctime, an inode or
// the set of entries, and ctime cannot be set back by hand, so an equal signature means the bytes
// are the ones written — unless the later change fell in the same clock tick as the recorded one:
// an identity whose ctime is that close to the moment it is recorded is "fresh" and not trusted (the
// caller compares the bytes instead next time, as git does with racily clean index entries).
// Read with synchronous lstat: a thousand folders take milliseconds.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MARKER_FILE } from '../access';
import { LEFTOVER_RE, MAX_FILES } from './paths';

/** A ctime this close to now may share its clock tick with a change still to come. */
const FRESH_MS = 50;
/** On a filesystem with whole-second timestamps (no nanoseconds anywhere), two seconds and a bit. */
const FRESH_COARSE_MS = 2100;

/** Whether a ctime (ms, with its fraction) recorded at `now` (ms) is too recent to be trusted later. */
export function isFresh(ctimeMs: number, now: number): boolean {
  const coarse = ctimeMs % 1000 === 0;
  return ctimeMs >= now - (coarse ? FRESH_COARSE_MS : FRESH_MS);
}

const fresh = (st: fs.Stats, now: number) => isFresh(st.ctimeMs, now);

export interface Identity {
  id: string;
  /** Too recent to be trusted later (see above). */
  fresh: boolean;
}

// Times as milliseconds with their fraction: a double keeps them to a fraction of a microsecond.
const ident = (st: fs.Stats) => `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.mode}`;

function lstat(p: string): fs.Stats | null {
  return fs.lstatSync(p, { throwIfNoEntry: false }) ?? null;
}

/**
 * The identity of the marker file of `root/<name>` ('' when it has none); null when `root/<name>` is
 * not a real folder. `checked`: the caller already saw it is a folder (a readdir entry). A folder
 * replaced by another holds another marker file: a copy is a new inode, a moved one a new ctime.
 */
export function markerStamp(root: string, name: string, checked = false): Identity | null {
  const now = Date.now();
  if (!checked && !lstat(path.join(root, name))?.isDirectory()) return null;
  const m = lstat(path.join(root, name, MARKER_FILE));
  return m ? stampOf(m, now) : { id: '', fresh: false };
}

/** The stamp of a marker file from its stats, as recorded at `now`. */
export const stampOf = (st: fs.Stats, now: number): Identity => ({ id: ident(st), fresh: fresh(st, now) });

/** The signature of a folder from the stats of its entries (relative paths), as recorded at `now`. */
export function signatureOf(entries: readonly { rel: string; st: fs.Stats }[], now: number): Identity {
  const h = createHash('sha256');
  let anyFresh = false;
  for (const e of [...entries].sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0))) {
    h.update(`${e.rel}\0${ident(e.st)}\n`);
    anyFresh ||= fresh(e.st, now);
  }
  return { id: h.digest('hex'), fresh: anyFresh };
}

/** The signature of what `root/<name>` holds now; null when it cannot be walked or is too large. */
export function folderSignature(root: string, name: string): Identity | null {
  const now = Date.now();
  const top = path.join(root, name);
  const entries: { rel: string; st: fs.Stats }[] = [];
  const walk = (rel: string): boolean => {
    for (const e of fs.readdirSync(path.join(top, rel))) {
      const p = rel ? `${rel}/${e}` : e;
      const st = fs.lstatSync(path.join(top, p));
      if (entries.push({ rel: p, st }) > MAX_FILES + 1) return false;
      if (st.isDirectory() && !walk(p)) return false;
    }
    return true;
  };
  try {
    if (!fs.lstatSync(top).isDirectory()) return null;
    return walk('') ? signatureOf(entries, now) : null;
  } catch {
    return null;
  }
}

/**
 * Whether `root` holds exactly the folders recorded, untouched at the marker level: every recorded
 * skill folder with the same marker stamp, every other folder or symlink one recorded as not ours
 * with the same marker stamp (so a marker dropped into it is noticed). One readdir and two lstats a
 * folder. Answers false, or the names recorded without a stamp (too fresh): the caller reads their markers.
 */
export function sameFolders(root: string, skills: Record<string, { stamp: string | null }>, others: Record<string, string>): string[] | false {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch {
    return false;
  }
  let seen = 0;
  const unstamped: string[] = [];
  for (const e of entries) {
    if (LEFTOVER_RE.test(e.name) || !(e.isDirectory() || e.isSymbolicLink())) continue;
    const kept = skills[e.name];
    if (kept) {
      if (!e.isDirectory()) return false;
      if (kept.stamp === null) unstamped.push(e.name);
      else if (markerStamp(root, e.name, true)?.id !== kept.stamp) return false;
      seen++;
    } else if (others[e.name] === undefined || (e.isDirectory() && (markerStamp(root, e.name, true)?.id ?? '') !== others[e.name])) return false;
  }
  return seen === Object.keys(skills).length ? unstamped : false;
}

/** The stamps of the folders of `root` that are not ours (symlinks: ''), for sameFolders. */
export function otherStamps(root: string, names: Iterable<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) {
    const st = markerStamp(root, n);
    // A fresh one never matches, so the next pass reads that folder's marker.
    out[n] = st?.fresh ? '(fresh)' : (st?.id ?? '');
  }
  return out;
}
