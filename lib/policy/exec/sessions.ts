// Write-then-run: the files an agent's execs created or changed anywhere it can write. Every exec
// of the agent is tracked (its sandbox is its own, so what one exec wrote is there for all its
// sessions), and the next exec passes them to the engine as ctx.writtenFiles, so running one of
// them is judged like inline code (approval, or a clean skill scan of its content first). On
// Docker the control kit finds them by inode change time, which content writes, renames, links,
// mode changes and `touch -d` all move forward and nothing in the sandbox can set back.
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { execSessionFiles } from '@/db/schema';
import type { SandboxBackend } from '../../sandbox/backend';
import { KIT_BIN } from '../../sandbox/kit/build';
import { scanSkill } from '../../skills/scanner';
import type { EvaluationContext } from '../types';

/** Files listed per exec at most; the list is cut past it (the rest are not tracked). */
export const MAX_WRITTEN_FILES = 200;
const MAX_SCAN_BYTES = 1024 * 1024;
const PATH_OK = /^\/[^\0\n]{0,1023}$/;
/**
 * File timestamps come from a coarse clock that may lag the precise one by a tick or two, and this
 * process's milliseconds are rounded down.
 */
const CLOCK_SLACK_NS = 100_000_000n;
/** Where a sandbox process can write: the root file system and the usual separate mounts. */
export const TRACKED_ROOTS = ['/', '/tmp', '/dev/shm', '/run', '/var/tmp', '/workspace', '/root', '/home'];

/** The session key every exec of an agent records under: its sandbox is shared by all its sessions. */
export const AGENT_WIDE = '';

export async function sessionContext(db: AppDb, agentId: string): Promise<Pick<EvaluationContext, 'writtenFiles' | 'scannedClean'>> {
  const rows = await db
    .select({ path: execSessionFiles.path, clean: execSessionFiles.scannedClean })
    .from(execSessionFiles)
    .where(eq(execSessionFiles.agentId, agentId));
  const dirty = new Set(rows.filter((r) => !r.clean).map((r) => r.path));
  return { writtenFiles: new Set(rows.map((r) => r.path)), scannedClean: new Set(rows.filter((r) => r.clean && !dirty.has(r.path)).map((r) => r.path)) };
}

/** Records what one exec wrote; a file written again loses an earlier clean scan unless scanned again. */
export async function recordWritten(db: AppDb, agentId: string, files: readonly { path: string; clean: boolean }[]): Promise<void> {
  if (!files.length) return;
  const now = new Date();
  await db
    .insert(execSessionFiles)
    .values(files.map((f) => ({ agentId, sessionId: AGENT_WIDE, path: f.path, scannedClean: f.clean, writtenAt: now })))
    .onConflictDoUpdate({
      target: [execSessionFiles.agentId, execSessionFiles.sessionId, execSessionFiles.path],
      set: { scannedClean: sql`excluded.scanned_clean`, writtenAt: now },
    });
  // An older per-session row of the same path must not keep a clean mark the new write voids.
  await db
    .update(execSessionFiles)
    .set({ scannedClean: false })
    .where(
      and(
        eq(execSessionFiles.agentId, agentId),
        ne(execSessionFiles.sessionId, AGENT_WIDE),
        inArray(
          execSessionFiles.path,
          files.map((f) => f.path),
        ),
      ),
    );
}

export interface WriteTracker {
  /** The files and links changed since tracking started (at most MAX_WRITTEN_FILES). */
  collect(): Promise<string[]>;
}

/** Parses the kit's `changed` output: "<kind> <size> <path>" per line, `!…` lines for what it skipped. */
export function parseChanged(stdout: string): string[] {
  const out: string[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^[fxl] \d+ (\/.*)$/.exec(line);
    if (m && PATH_OK.test(m[1])) out.push(m[1]);
  }
  // A root inside another on the same file system is walked twice.
  return [...new Set(out)].slice(0, MAX_WRITTEN_FILES);
}

/** The sandbox's clock in nanoseconds, read by the kit (a remote engine's host may differ from ours). */
async function sandboxClock(backend: SandboxBackend, sandboxId: string): Promise<bigint | null> {
  const clock = await backend.exec(sandboxId, { argv: [KIT_BIN, 'now'], timeoutMs: 10_000, maxOutputBytes: 256 }).catch(() => null);
  const m = clock?.exitCode === 0 ? /^(\d+)\.(\d{9})$/.exec(clock.stdout.trim()) : null;
  return m ? BigInt(m[1]) * 1_000_000_000n + BigInt(m[2]) : null;
}

/**
 * Starts tracking before an exec. Docker: the kit reads the sandbox's clock, and lists afterwards
 * what changed since. Other backends have no kit: a marker file and the sandbox's own `find`
 * (which only the agent itself could fool, in its own sandbox). Null when nothing can be tracked.
 */
export async function startTracking(backend: SandboxBackend, sandboxId: string, roots: readonly string[], at = new Date()): Promise<WriteTracker | null> {
  if (backend.kind !== 'docker') return markerTracking(backend, sandboxId, roots, at);
  const now = backend.sharesHostClock ? BigInt(at.getTime()) * 1_000_000n : await sandboxClock(backend, sandboxId);
  if (now === null) return null;
  const since = now - CLOCK_SLACK_NS;
  const sec = String(since / 1_000_000_000n);
  const nsec = String(since % 1_000_000_000n);
  return {
    async collect() {
      const r = await backend.exec(sandboxId, {
        argv: [KIT_BIN, 'changed', sec, nsec, String(MAX_WRITTEN_FILES), ...new Set(roots)],
        timeoutMs: 30_000,
        maxOutputBytes: 512 * 1024,
      });
      return parseChanged(r.stdout);
    },
  };
}

/** `touch -t` stamp one second before `at`, in UTC: files written in the same second still count as newer. */
export function markerStamp(at: Date): string {
  const d = new Date(at.getTime() - 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}.${p(d.getUTCSeconds())}`;
}

/** Values reach the shell as positional arguments, never spliced into its script. */
async function markerTracking(backend: SandboxBackend, sandboxId: string, roots: readonly string[], at: Date): Promise<WriteTracker | null> {
  const marker = `/tmp/.skilldock-exec-${at.getTime()}-${Math.random().toString(36).slice(2, 10)}`;
  const placed = await backend
    .exec(sandboxId, {
      argv: ['sh', '-c', 'mkdir -p "${2%/*}" && touch -t "$1" "$2"', 'sh', markerStamp(at), marker],
      env: { TZ: 'UTC0' },
      timeoutMs: 10_000,
      maxOutputBytes: 4096,
    })
    .catch(() => null);
  if (placed?.exitCode !== 0) return null;
  const dirs = roots.filter((r) => r !== '/');
  return {
    async collect() {
      const r = await backend.exec(sandboxId, {
        argv: [
          'sh',
          '-c',
          'm=$1; n=$2; shift 2; find "$@" -xdev -type f -newer "$m" 2>/dev/null | head -n "$n"; rm -f "$m"',
          'sh',
          marker,
          String(MAX_WRITTEN_FILES),
          ...dirs,
        ],
        timeoutMs: 30_000,
        maxOutputBytes: 256 * 1024,
      });
      return r.stdout
        .split('\n')
        .filter((l) => PATH_OK.test(l))
        .slice(0, MAX_WRITTEN_FILES);
    },
  };
}

/** The skill scanner over one written file's content: clean only when it finds nothing. */
export async function scanWritten(backend: SandboxBackend, sandboxId: string, file: string): Promise<boolean> {
  try {
    const stream = await backend.readFile(sandboxId, file, MAX_SCAN_BYTES);
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
    const name = file.split('/').pop() || 'script';
    const result = scanSkill([{ path: name, content: Buffer.concat(chunks) }], { env: [], bins: [] });
    return result.verdict === 'clean';
  } catch {
    return false;
  }
}
