import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppError } from './errors';

/** The lock file inside a locked folder. */
export const LOCK_FILE = 'skilldock.lock';

interface Holder {
  pid: number;
  /** The process start time from /proc/<pid>/stat (clock ticks since boot), so a reused pid is not mistaken for the holder. */
  start: string | null;
  host: string;
  since: string;
}

export interface DirLock {
  readonly file: string;
  /** Removes the lock file if it is still ours. Idempotent. */
  release(): void;
}

/** Field 22 of /proc/<pid>/stat; null where /proc is absent. The command name (field 2) may hold spaces and parentheses. */
export function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): Holder | null {
  try {
    const h = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Holder>;
    return Number.isInteger(h.pid) && (h.pid as number) > 0 ? (h as Holder) : null;
  } catch {
    return null;
  }
}

/** The recorded process still runs (same pid and start time, on this host). */
function holderRunning(h: Holder | null): h is Holder {
  if (!h || h.host !== os.hostname() || !alive(h.pid)) return false;
  const start = processStartTime(h.pid);
  return start === null || h.start === null || start === h.start;
}

/** Creates `file` with `content` atomically (complete or absent): a temp file hard-linked into place. */
function createExclusive(file: string, content: string): boolean {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, content, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(tmp, file);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

function refuse(dir: string, what: string, h: Holder): AppError {
  const who = h.pid === process.pid ? `this process (pid ${h.pid})` : `another Skilldock process (pid ${h.pid}, since ${h.since})`;
  return new AppError('conflict', `The ${what} ${dir} is in use by ${who}. Stop it first, or give this one its own ${what}.`, {
    details: { dir, pid: h.pid },
  });
}

/**
 * Takes the exclusive lock of `dir` for this process, or throws a `conflict` naming the holder's pid.
 * A lock left by a process that is gone (or whose pid now belongs to another process) is taken over.
 * The lock file is removed by release() or, failing that, when this process exits.
 */
export function lockDir(dir: string, what = 'data dir'): DirLock {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return lockFile(path.join(dir, LOCK_FILE), what, dir);
}

/** lockDir with the lock file named by the caller (next to what it guards, e.g. `<pglite dir>.lock`). */
export function lockFile(file: string, what: string, dir = file): DirLock {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const me: Holder = { pid: process.pid, start: processStartTime(process.pid), host: os.hostname(), since: new Date().toISOString() };
  const content = `${JSON.stringify(me)}\n`;
  for (let attempt = 0; ; attempt++) {
    if (createExclusive(file, content)) break;
    const holder = readHolder(file);
    if (holderRunning(holder)) throw refuse(dir, what, holder);
    if (attempt >= 3) throw new AppError('conflict', `Could not take the lock ${file}: other processes keep racing for it.`, { details: { dir } });
    takeOverStale(file, holder);
  }
  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    const now = readHolder(file);
    if (now?.pid === me.pid && now.since === me.since) fs.rmSync(file, { force: true });
  };
  process.on('exit', release);
  return { file, release };
}

/**
 * Removes a stale lock, under a short-lived guard so that two processes taking over at once cannot
 * both delete: the second would otherwise remove the first one's fresh lock.
 */
function takeOverStale(file: string, seen: Holder | null): void {
  const guard = `${file}.takeover`;
  if (!createExclusive(guard, `${JSON.stringify({ pid: process.pid, start: processStartTime(process.pid), host: os.hostname(), since: '' })}\n`)) {
    // A guard left by a process that died during its takeover is removed; a live one wins.
    if (!holderRunning(readHolder(guard))) fs.rmSync(guard, { force: true });
    return;
  }
  try {
    const now = readHolder(file);
    const same = now === seen || (now && seen && now.pid === seen.pid && now.since === seen.since);
    if (same && !holderRunning(now)) fs.rmSync(file, { force: true });
  } finally {
    fs.rmSync(guard, { force: true });
  }
}
