/** The states of a job; plain constants, so the browser can import them without the table definitions. */
export const JOB_STATES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const FINAL_STATES: readonly JobState[] = ['succeeded', 'failed', 'canceled'];
export const isFinalState = (s: string) => (FINAL_STATES as readonly string[]).includes(s);
