/**
 * The install record's states and what moves it between them, as data.
 *
 * What each state means for agents (only a ready version is ever visible):
 * - `installing`: a job is installing `version`. Agents do not get it yet; if the record was ready
 *   before (an update or a retry), `previous_ready` is the version they keep getting.
 * - `ready`: `version` is in the config's active image; agents see it.
 * - `failed`: the last install failed or was stopped. Agents get `previous_ready` if there is one
 *   (a failed update leaves the old version serving), otherwise nothing.
 * - `removing`: a job is rebuilding the image without the skill; agents no longer get it.
 * - `disabled`: installed in the image, hidden from agents.
 * `null` stands for "no record": before the first install and after a finished removal.
 */
import type { InstallState, ServedVersion } from '@/db/schema/installs';
import { AppError, isAppError } from '../../core/errors';

export type { ImageState, InstallState } from '@/db/schema/installs';

export const INSTALL_EVENTS = ['install', 'progress', 'succeed', 'fail', 'stop', 'retry', 'update', 'disable', 'enable', 'remove', 'removed'] as const;
export type InstallEvent = (typeof INSTALL_EVENTS)[number];

/** A record's state, or null when there is no record. */
export type RecordState = InstallState | null;

type From = InstallState | 'none';
/** `restore`: back to the state the record had before the removal began (the image did not change). */
type Target = InstallState | null | 'restore';

export const TRANSITIONS: Readonly<Record<From, Partial<Record<InstallEvent, Target>>>> = {
  none: { install: 'installing' },
  installing: { progress: 'installing', succeed: 'ready', fail: 'failed', stop: 'failed' },
  ready: { install: 'installing', retry: 'installing', update: 'installing', disable: 'disabled', enable: 'ready', remove: 'removing' },
  failed: { install: 'installing', retry: 'installing', update: 'installing', stop: 'failed', remove: 'removing' },
  // A new install while a removal runs takes over the record; the caller cancels the removal's job.
  removing: { install: 'installing', progress: 'removing', fail: 'restore', removed: null },
  disabled: { disable: 'disabled', enable: 'ready', remove: 'removing' },
};

const RUNNING_EVENTS: readonly InstallEvent[] = ['progress', 'succeed', 'fail', 'removed'];

function refusal(from: From, event: InstallEvent): { message: string; hint?: string } {
  if (from === 'none') return { message: 'This skill is not installed in this sandbox config; install it first.' };
  if (from === 'installing')
    return { message: 'This install is still running; stop it first.', hint: 'Stop the install, then retry it (with notes if needed).' };
  if (from === 'removing') return { message: 'This skill is being removed from this sandbox config; wait for the removal to finish.' };
  if (event === 'stop') return { message: 'This install is not running; there is nothing to stop.' };
  if (RUNNING_EVENTS.includes(event)) return { message: 'No install or removal is running for this skill in this sandbox config.' };
  if (from === 'disabled') return { message: 'This skill is disabled in this sandbox config; enable it first.' };
  if (event === 'enable') return { message: 'This install failed; retry it to make it ready.' };
  return { message: 'Only a ready install can be disabled; retry or remove this failed install.' };
}

export interface TransitionOptions {
  /** For a removal that fails: the state the record had when the removal began (default ready). */
  removingFrom?: RecordState;
}

/** The state after `event`, or an invalid_state error saying what to do instead. Nothing is thrown. */
export function nextState(from: RecordState, event: InstallEvent, opts: TransitionOptions = {}): RecordState | AppError<'invalid_state'> {
  const key: From = from ?? 'none';
  const to = TRANSITIONS[key][event];
  if (to === undefined) {
    const r = refusal(key, event);
    return new AppError('invalid_state', r.message, { details: { state: from, event }, ...(r.hint ? { hint: r.hint } : {}) });
  }
  if (to !== 'restore') return to;
  const back = opts.removingFrom;
  return back === 'ready' || back === 'failed' || back === 'disabled' ? back : 'ready';
}

/** Like nextState, but throws the refusal. */
export function requireNextState(from: RecordState, event: InstallEvent, opts: TransitionOptions = {}): RecordState {
  const to = nextState(from, event, opts);
  if (isAppError(to)) throw to;
  return to;
}

/** The version agents get from a record, or null when they get none. */
export function servedVersion(r: {
  state: InstallState;
  version: string;
  contentHash: string;
  imageGeneration: number | null;
  previousReady: ServedVersion | null;
}): ServedVersion | null {
  if (r.state === 'ready') return { version: r.version, contentHash: r.contentHash, imageGeneration: r.imageGeneration };
  if (r.state === 'installing' || r.state === 'failed') return r.previousReady;
  return null;
}
