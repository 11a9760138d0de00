import type { z } from 'zod';
import type { Permission } from '../auth/permissions';
import type { JobContext } from './types';

/**
 * What a kind of job is, independent of how it runs: its name (written once, here), its params
 * schema, and the rules the queue and the worker apply. Importable anywhere, so a feature enqueues
 * `enqueue(db, actor, someJob, params)` with params checked at compile time and parsed at run time.
 * `P` is the parsed params, `I` what callers pass (before schema defaults), `R` the job's result.
 */
export interface JobKind<P = unknown, R = unknown, I = P> {
  readonly name: string;
  readonly params: z.ZodType<P, I>;
  /** Shown in lists; may use the params. */
  title(params: P): string;
  /** Permission needed to start this kind by name (POST /api/v1/jobs); undefined = started only by its own feature. */
  readonly startPermission?: Permission;
  /**
   * Permission needed to retry a job of this kind: a retry runs on the word of whoever retries it,
   * so it needs what the feature that starts the kind needs. Defaults to startPermission; a kind
   * with neither cannot be retried.
   */
  readonly retryPermission?: Permission;
  /** The params a retry starts with: drops what only the original starter could give (an acknowledgement). Default: the same. */
  retryParams?(params: P): P;
  /** Jobs of this kind running at once across all replicas. */
  readonly concurrency: number;
  /** Total attempts, counting the first; > 1 enables retry with backoff after a failure. */
  readonly maxAttempts: number;
  backoffMs?(attempt: number): number;
  /**
   * Runs only on a replica of the host it was queued on (see jobs/host.ts): its work changes that
   * host (installs into its runtimes), so a replica on another machine must not take it.
   */
  readonly hostBound?: boolean;
  /** Safe to run again from the start after a crash; otherwise a crashed job ends failed. */
  readonly resumable: boolean;
  /**
   * What a finished job of this kind may have changed, as names other parts of the app listen for
   * (see onJobsFinished); lets a listener on any replica react without knowing kind names.
   */
  readonly effects?: readonly string[];
  /** Type-only: carries R (never set). */
  readonly resultType?: (result: R) => void;
}

/** A kind with any params and result, as the registry and the worker hold it (`never`: the result is not read through it). */
export type AnyJobKind = JobKind<unknown, never, unknown>;

export type JobHandler<P, R> = (ctx: JobContext<P>) => Promise<R>;

/** What a kind's name may be: lowercase letters, digits, dots and dashes. */
export const JOB_KIND_NAME = /^[a-z][a-z0-9.-]{0,63}$/;

export type JobKindDefinition<S extends z.ZodType> = Omit<JobKind<z.output<S>, unknown, z.input<S>>, 'resultType' | 'params'> & { readonly params: S };

/** Declares a job kind; annotate the constant as `JobKind<P, R>` to fix the result type its handler must return. */
export function defineJobKind<S extends z.ZodType>(def: JobKindDefinition<S>): JobKind<z.output<S>, unknown, z.input<S>> {
  if (!JOB_KIND_NAME.test(def.name)) throw new Error(`A job kind name is lowercase letters, digits, dots and dashes: "${def.name}"`);
  if (def.concurrency < 1 || def.maxAttempts < 1) throw new Error(`Job kind ${def.name}: concurrency and maxAttempts are at least 1`);
  return Object.freeze({ ...def }) as JobKind<z.output<S>, unknown, z.input<S>>;
}

/** A job to queue: a kind and the params it takes. Build it with jobSpec() so the params are type-checked. */
export interface JobSpec<P = unknown, R = unknown, I = P> {
  kind: JobKind<P, R, I>;
  params: I;
}
export type AnyJobSpec = JobSpec<unknown, never, unknown>;

export const jobSpec = <P, R, I>(kind: JobKind<P, R, I>, params: NoInfer<I>): JobSpec<P, R, I> => ({ kind, params });
