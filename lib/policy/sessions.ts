// Write-then-run: the files an agent's exec created or changed in its workspace, per session. The
// next exec of the same session passes them to the engine as ctx.writtenFiles, so running one of
// them is judged like inline code (approval, or a clean skill scan of its content first).
import { and, eq, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { execSessionFiles } from '@/db/schema';
import type { SandboxBackend } from '../sandbox/backend';
import { scanSkill } from '../skills/scanner';
import type { EvaluationContext } from './types';

/** Files listed per exec at most; the list is cut past it (the rest are not tracked). */
export const MAX_WRITTEN_FILES = 200;
const MAX_SCAN_BYTES = 1024 * 1024;
const PATH_OK = /^\/[^\0\n]{0,1023}$/;

export async function sessionContext(db: AppDb, agentId: string, sessionId: string): Promise<Pick<EvaluationContext, 'writtenFiles' | 'scannedClean'>> {
  const rows = await db
    .select({ path: execSessionFiles.path, clean: execSessionFiles.scannedClean })
    .from(execSessionFiles)
    .where(and(eq(execSessionFiles.agentId, agentId), eq(execSessionFiles.sessionId, sessionId)));
  return { writtenFiles: new Set(rows.map((r) => r.path)), scannedClean: new Set(rows.filter((r) => r.clean).map((r) => r.path)) };
}

/** Records what one exec wrote; a file written again loses an earlier clean scan unless scanned again. */
export async function recordWritten(db: AppDb, agentId: string, sessionId: string, files: readonly { path: string; clean: boolean }[]): Promise<void> {
  if (!files.length) return;
  const now = new Date();
  await db
    .insert(execSessionFiles)
    .values(files.map((f) => ({ agentId, sessionId, path: f.path, scannedClean: f.clean, writtenAt: now })))
    .onConflictDoUpdate({
      target: [execSessionFiles.agentId, execSessionFiles.sessionId, execSessionFiles.path],
      set: { scannedClean: sql`excluded.scanned_clean`, writtenAt: now },
    });
}

/** `touch -t` stamp one second before `at`, in UTC: files written in the same second still count as newer. */
export function markerStamp(at: Date): string {
  const d = new Date(at.getTime() - 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}.${p(d.getUTCSeconds())}`;
}

export interface WriteTracker {
  /** Lists the regular files under the root newer than the marker, and removes the marker. */
  collect(): Promise<string[]>;
}

/**
 * Places a marker file before an exec. Values reach the shell as positional arguments, never
 * spliced into its script. A marker that cannot be placed leaves nothing to compare with: null.
 */
export async function startTracking(backend: SandboxBackend, sandboxId: string, root: string, marker: string, at: Date): Promise<WriteTracker | null> {
  const placed = await backend
    .exec(sandboxId, {
      argv: ['sh', '-c', 'mkdir -p "${2%/*}" && touch -t "$1" "$2"', 'sh', markerStamp(at), marker],
      env: { TZ: 'UTC0' },
      timeoutMs: 10_000,
      maxOutputBytes: 4096,
    })
    .catch(() => null);
  if (placed?.exitCode !== 0) return null;
  return {
    async collect() {
      const r = await backend.exec(sandboxId, {
        argv: ['sh', '-c', 'find "$1" -xdev -type f -newer "$2" 2>/dev/null | head -n "$3"; rm -f "$2"', 'sh', root, marker, String(MAX_WRITTEN_FILES)],
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
