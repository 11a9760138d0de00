// What an approval binds besides the command: stdin (by digest), cwd, timeout and the content of
// every script the command runs. A use of the approval must repeat all of it unchanged.
import { createHash } from 'node:crypto';
import type { execApprovals } from '@/db/schema';

type ApprovalRow = typeof execApprovals.$inferSelect;

export interface ScriptDigest {
  path: string;
  sha256: string;
}

/** Everything besides the command that decides what an approved exec does. */
export interface ApprovalBinding {
  /** sha256 of stdin (hex); null when there is none. */
  stdinSha256: string | null;
  cwd: string | null;
  /** The skill whose variables the run gets; null: none. */
  skill?: string | null;
  timeoutMs: number;
  /** The content digests of the scripts the command runs; null when not known. */
  scripts?: ScriptDigest[] | null;
}

export const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');
/** The stdin an approval binds: its digest, or null for none (an empty stdin is none). */
export const stdinDigest = (stdin: string | undefined) => (stdin ? sha256Hex(stdin) : null);

export const sortedScripts = (s: ScriptDigest[] | null | undefined) =>
  s ? [...s].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)).map((x) => ({ path: x.path, sha256: x.sha256 })) : null;

/** The fields of `b` that differ from what `row` approved, by name. */
export function bindingChanges(row: ApprovalRow, command: string, b: ApprovalBinding | undefined): string[] {
  const changed: string[] = [];
  if (row.command !== command) changed.push('command');
  if (!b) return changed;
  if ((row.stdinSha256 ?? null) !== b.stdinSha256) changed.push('stdin');
  if ((row.cwd ?? null) !== b.cwd) changed.push('cwd');
  if ((row.skill ?? null) !== (b.skill ?? null)) changed.push('skill');
  if (row.timeoutMs !== null && row.timeoutMs !== b.timeoutMs) changed.push('timeoutMs');
  // Scripts bind when they were known at approval: then the same files with the same content.
  if (row.scripts && JSON.stringify(sortedScripts(row.scripts)) !== JSON.stringify(sortedScripts(b.scripts ?? []))) changed.push('scripts');
  return changed;
}

export const CHANGE_HINTS: Record<string, string> = {
  command: 'Send the approved command unchanged.',
  stdin: 'Send the same stdin as the approved request (its sha256 is on the request).',
  cwd: 'Run in the working directory that was approved.',
  skill: 'Name the skill that was approved (or none, if none was).',
  timeoutMs: 'Use the timeout that was approved.',
  scripts: 'A script the command runs changed since it was approved; ask for a new approval.',
};
