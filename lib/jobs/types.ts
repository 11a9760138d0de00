import type { Database } from '@/db/client';
import type { jobs } from '@/db/schema';
import type { RunOptions, RunResult } from '../core/process';

export type JobRow = typeof jobs.$inferSelect;

/**
 * What a handler gets from the worker. Anything else it needs (runtime dir, secrets, other
 * domains) comes from the factory that built the handler.
 */
export interface JobContext<P = unknown> {
  job: JobRow;
  params: P;
  /** Aborted when the job is canceled, its lease is lost, or the server shuts down. */
  signal: AbortSignal;
  database: Database;
  log(line: string, stream?: 'stdout' | 'stderr' | 'info'): void;
  progress(percent: number, stage: string): void;
  /** Runs a program (argument array) whose output lines go to the job log; stopped on cancel. */
  run(command: string, args: readonly string[], opts?: Omit<RunOptions, 'signal'>): Promise<RunResult>;
  /**
   * Runs `fn` as a step that must not be interrupted: a cancel, a lost lease or a shutdown waits
   * for it to end (the server's shutdown grace period bounds the wait). `run(…, { critical: true })`
   * does the same for one process.
   */
  critical<T>(fn: () => Promise<T>): Promise<T>;
}

export type JobEvent = { type: 'state'; job: JobRow } | { type: 'log'; seq: number; at: string; stream: string; line: string; frame: string };

/** The server-sent-event frame of a log line, built once and shared by every follower. */
export function logEvent(r: { seq: number; at: Date; stream: string; line: string }): Extract<JobEvent, { type: 'log' }> {
  const at = r.at.toISOString();
  const data = JSON.stringify({ seq: r.seq, at, stream: r.stream, line: r.line });
  return { type: 'log', seq: r.seq, at, stream: r.stream, line: r.line, frame: `id: ${r.seq}\nevent: log\ndata: ${data}\n\n` };
}

/** Payloads on the NOTIFY channel shared by every replica. */
export type BusMessage = { t: 'log'; id: string; seq: number } | { t: 'state'; id: string } | { t: 'wake' } | { t: 'cancel'; id: string };
export const BUS_CHANNEL = 'skilldock_jobs';
