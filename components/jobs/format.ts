import { format, formatDistanceToNowStrict } from 'date-fns';
import type { Job } from './view';

/** "0.4s", "12.3s", "4m 05s", "2h 07m". */
export function formatDuration(ms: number, opts: { wholeSeconds?: boolean } = {}): string {
  const v = Math.max(0, ms);
  if (v < 60_000) return opts.wholeSeconds ? `${Math.floor(v / 1000)}s` : `${(v / 1000).toFixed(v < 10_000 ? 1 : 0)}s`;
  const totalSeconds = Math.floor(v / 1000);
  const s = totalSeconds % 60;
  const m = Math.floor(totalSeconds / 60) % 60;
  const h = Math.floor(totalSeconds / 3600);
  return h ? `${h}h ${String(m).padStart(2, '0')}m` : `${m}m ${String(s).padStart(2, '0')}s`;
}

/** How long a job ran (or has been running, measured against `now`); null if it never started. */
export function jobElapsedMs(job: Pick<Job, 'startedAt' | 'finishedAt'>, now = Date.now()): number | null {
  if (!job.startedAt) return null;
  const start = Date.parse(job.startedAt);
  const end = job.finishedAt ? Date.parse(job.finishedAt) : now;
  return Math.max(0, end - start);
}

export const fullTime = (iso: string) => format(new Date(iso), 'yyyy-MM-dd HH:mm:ss');
export const relativeTime = (iso: string) => formatDistanceToNowStrict(new Date(iso), { addSuffix: true });

export const formatCount = (n: number) => n.toLocaleString('en');

const FINAL_STAGE: Record<string, string> = {
  queued: 'Waiting to start',
  succeeded: 'Finished',
  failed: 'Ended with an error',
  canceled: 'Stopped on request',
};

/**
 * What the job is doing, in words. The worker leaves the state word as the stage of an ended job;
 * that is shown as a phrase so the state chip stays the one place the state word appears.
 */
export function stageLabel(job: Pick<Job, 'state' | 'progressStage' | 'cancelRequested'>): string {
  if (job.state === 'running' && job.cancelRequested) return 'canceling';
  if (!job.progressStage || job.progressStage === job.state) return FINAL_STAGE[job.state] ?? job.state;
  return job.progressStage;
}

/** The progress bar's colour for a job's state: red when it failed, green when it succeeded, amber when canceled. */
export function progressTone(state: string): string | undefined {
  return state === 'failed' ? '[&>div]:bg-destructive' : state === 'succeeded' ? '[&>div]:bg-success' : state === 'canceled' ? '[&>div]:bg-warning' : undefined;
}

/** A job's progress as its bar shows it: a job that succeeded is complete, whatever its last reported percent. */
export const shownPercent = (job: { state: string; progressPercent: number }): number => (job.state === 'succeeded' ? 100 : Math.round(job.progressPercent));

/** "1 (no automatic retry)", "1 (tried up to 3 times)", "2 of 3 (tried again after a failure)": never reads like a retry that did not happen. */
export function attemptsText(job: { attempts: number; maxAttempts: number }): string {
  if (job.attempts > 1) return `${job.attempts} of ${job.maxAttempts} (tried again after a failure)`;
  return job.maxAttempts > 1 ? `${job.attempts} (tried up to ${job.maxAttempts} times if it fails)` : `${job.attempts} (no automatic retry)`;
}
