// The entry policy of a collection, shared by every way of reading a sandbox's output (an engine's
// tar stream, a remote's file API): only regular files, names normalised and kept inside the
// output folder, and the caps applied as entries arrive. Nothing a sandbox writes decides a limit.
import path from 'node:path/posix';
import { trimEndChar } from '../../core/text';
import type { ArtifactLimits } from './limits';

export type SkipReason = 'symlink' | 'hardlink' | 'device' | 'other' | 'bad_name' | 'duplicate' | 'too_deep' | 'too_large' | 'byte_cap' | 'file_cap';

const MAX_NAME = 1024;
const MAX_SEGMENT = 255;

/** A relative path under the output folder, normalised; null for one that is empty, climbs out, or holds control characters. */
export function normaliseName(raw: string): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_NAME * 2) return null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return null;
  }
  const n = trimEndChar(path.normalize(raw), '/');
  if (!n || n === '.' || n === '..' || n.startsWith('/') || n.startsWith('../')) return null;
  if (n.length > MAX_NAME || n.split('/').some((s) => s.length > MAX_SEGMENT)) return null;
  return n;
}

export interface Intake {
  readonly limits: ArtifactLimits;
  files: number;
  bytes: number;
  /** Bytes and entries seen, kept or not. */
  scanned: number;
  entries: number;
  skipped: Partial<Record<SkipReason, number>>;
  /** Why reading stopped before the end, when it did. */
  stopped: string | null;
  seen: Set<string>;
}

export function newIntake(limits: ArtifactLimits): Intake {
  return { limits, files: 0, bytes: 0, scanned: 0, entries: 0, skipped: {}, stopped: null, seen: new Set() };
}

export function skip(t: Intake, reason: SkipReason): void {
  t.skipped[reason] = (t.skipped[reason] ?? 0) + 1;
}

/** Counts one entry of `size` bytes; false (and `stopped` set) once the reading budget is spent. */
export function account(t: Intake, size: number): boolean {
  t.entries += 1;
  t.scanned += Math.max(0, size);
  if (t.entries > t.limits.maxEntries) t.stopped = `more than ${t.limits.maxEntries} entries`;
  else if (t.scanned > t.limits.maxScanBytes) t.stopped = `more than ${t.limits.maxScanBytes} bytes to read`;
  return t.stopped === null;
}

/** Whether a regular file of `size` bytes at `rel` (normalised) is kept; else the reason it is left out (counted). */
export function admit(t: Intake, rel: string, size: number): SkipReason | null {
  const reason: SkipReason | null = t.seen.has(rel)
    ? 'duplicate'
    : rel.split('/').length > t.limits.maxDepth
      ? 'too_deep'
      : size > t.limits.maxBytes
        ? 'too_large'
        : t.files >= t.limits.maxFiles
          ? 'file_cap'
          : t.bytes + size > t.limits.maxBytes
            ? 'byte_cap'
            : null;
  if (reason) skip(t, reason);
  else {
    t.seen.add(rel);
    t.files += 1;
    t.bytes += size;
  }
  return reason;
}

const WORDS: Record<SkipReason, string> = {
  symlink: 'symbolic link(s), not followed',
  hardlink: 'hard link(s)',
  device: 'device(s) or pipe(s)',
  other: 'entry(ies) that are not regular files',
  bad_name: 'file(s) with a name that is unsafe or too long',
  duplicate: 'duplicate name(s)',
  too_deep: 'file(s) nested too deep',
  too_large: 'file(s) larger than the whole collection cap',
  byte_cap: 'file(s) past the byte cap',
  file_cap: 'file(s) past the file-count cap',
};

/** The note a collection's record carries: what was cut and why, in words; null when nothing was. */
export function intakeNote(t: Intake): string | null {
  const parts = (Object.entries(t.skipped) as [SkipReason, number][]).filter(([, n]) => n > 0).map(([r, n]) => `${n} ${WORDS[r]}`);
  const caps = `caps: ${t.limits.maxFiles} files, ${t.limits.maxBytes} bytes`;
  if (t.stopped) parts.push(`reading stopped early (${t.stopped}), so later files were not looked at`);
  return parts.length ? `Left out: ${parts.join('; ')} (${caps}).` : null;
}
