import { describe, expect, it } from 'vitest';
import { isAppError } from '../../core/errors';
import { IMAGE_EVENTS, type ImageEvent, nextImageState, requireNextImageState } from '../../sandbox/images/image-states';
import { type ImageState, INSTALL_EVENTS, type InstallEvent, nextState, type RecordState, requireNextState, servedVersion } from './states';

const FROM: RecordState[] = [null, 'installing', 'ready', 'failed', 'removing', 'disabled'];

// Written out by hand (not derived from the module's table), so a changed transition fails here.
const ALLOWED: [RecordState, InstallEvent, RecordState][] = [
  [null, 'install', 'installing'],
  ['installing', 'progress', 'installing'],
  ['installing', 'succeed', 'ready'],
  ['installing', 'fail', 'failed'],
  ['installing', 'stop', 'failed'],
  ['ready', 'install', 'installing'],
  ['ready', 'retry', 'installing'],
  ['ready', 'update', 'installing'],
  ['ready', 'disable', 'disabled'],
  ['ready', 'enable', 'ready'],
  ['ready', 'remove', 'removing'],
  ['failed', 'install', 'installing'],
  ['failed', 'retry', 'installing'],
  ['failed', 'update', 'installing'],
  ['failed', 'stop', 'failed'],
  ['failed', 'remove', 'removing'],
  ['removing', 'install', 'installing'],
  ['removing', 'progress', 'removing'],
  ['removing', 'fail', 'ready'],
  ['removing', 'removed', null],
  ['disabled', 'disable', 'disabled'],
  ['disabled', 'enable', 'ready'],
  ['disabled', 'remove', 'removing'],
];

/** Part of the refusal's message for each refused pair: what the person should do. */
function expectedRefusal(from: RecordState, event: InstallEvent): RegExp {
  if (from === null) return /not installed.*install it first/;
  if (from === 'installing') return /still running; stop it first/;
  if (from === 'removing') return /being removed.*wait for the removal/;
  if (event === 'stop') return /not running; there is nothing to stop/;
  if (['progress', 'succeed', 'fail', 'removed'].includes(event)) return /No install or removal is running/;
  if (from === 'disabled') return /disabled.*enable it first/;
  if (event === 'enable') return /failed; retry it/;
  return /Only a ready install can be disabled/;
}

const key = (from: RecordState, event: InstallEvent) => `${from ?? 'none'} --${event}-->`;
const allowed = new Map(ALLOWED.map(([f, e, t]) => [key(f, e), t]));
const refused = FROM.flatMap((from) => INSTALL_EVENTS.filter((e) => !allowed.has(key(from, e))).map((e) => [from, e] as const));

describe('install transitions', () => {
  it('covers every pair of state and event', () => {
    expect(ALLOWED.length + refused.length).toBe(FROM.length * INSTALL_EVENTS.length);
    expect(refused.length).toBe(43);
  });

  it.each(ALLOWED)('%s --%s--> %s', (from, event, to) => {
    expect(nextState(from, event)).toBe(to);
    expect(requireNextState(from, event)).toBe(to);
  });

  it.each(refused)('%s --%s--> refused', (from, event) => {
    const r = nextState(from, event);
    expect(isAppError(r)).toBe(true);
    if (!isAppError(r)) return;
    expect(r.code).toBe('invalid_state');
    expect(r.status).toBe(409);
    expect(r.message).toMatch(expectedRefusal(from, event));
    expect(r.details).toEqual({ state: from, event });
    expect(() => requireNextState(from, event)).toThrow(r.message);
  });

  it('a failed removal goes back to the state the removal began in', () => {
    expect(nextState('removing', 'fail', { removingFrom: 'disabled' })).toBe('disabled');
    expect(nextState('removing', 'fail', { removingFrom: 'failed' })).toBe('failed');
    expect(nextState('removing', 'fail', { removingFrom: 'ready' })).toBe('ready');
    // Anything else (unknown, or a state a removal cannot begin in) falls back to ready.
    expect(nextState('removing', 'fail', { removingFrom: 'installing' })).toBe('ready');
    expect(nextState('removing', 'fail', { removingFrom: null })).toBe('ready');
  });

  it('a running install hints at stop, then retry', () => {
    const r = nextState('installing', 'retry');
    expect(isAppError(r) && r.hint).toMatch(/Stop the install, then retry/);
  });
});

describe('the version agents get', () => {
  const prev = { version: 'v1', contentHash: 'a'.repeat(64), imageGeneration: 3 };
  const rec = (state: NonNullable<RecordState>, previousReady: typeof prev | null = prev) => ({
    state,
    version: 'v2',
    contentHash: 'b'.repeat(64),
    imageGeneration: state === 'ready' || state === 'disabled' ? 4 : null,
    previousReady,
  });

  it.each([
    ['ready', { version: 'v2', contentHash: 'b'.repeat(64), imageGeneration: 4 }],
    ['installing', prev],
    ['failed', prev],
    ['removing', null],
    ['disabled', null],
  ] as const)('%s serves %j', (state, served) => {
    expect(servedVersion(rec(state))).toEqual(served);
  });

  it('a first install that failed serves nothing', () => {
    expect(servedVersion(rec('failed', null))).toBeNull();
    expect(servedVersion(rec('installing', null))).toBeNull();
  });
});

const IMAGE_FROM: ImageState[] = ['building', 'active', 'superseded', 'deleted'];
const IMAGE_ALLOWED: [ImageState, ImageEvent, ImageState][] = [
  ['building', 'activate', 'active'],
  ['building', 'delete', 'deleted'],
  ['active', 'supersede', 'superseded'],
  ['superseded', 'delete', 'deleted'],
  ['deleted', 'delete', 'deleted'],
];
const IMAGE_REFUSED_MESSAGE: Record<ImageState, RegExp> = {
  building: /still being built/,
  active: /activate another generation before deleting/,
  superseded: /already replaced; it can only be deleted/,
  deleted: /was deleted; plan a new generation/,
};
const imageAllowed = new Set(IMAGE_ALLOWED.map(([f, e]) => `${f}/${e}`));
const imageRefused = IMAGE_FROM.flatMap((f) => IMAGE_EVENTS.filter((e) => !imageAllowed.has(`${f}/${e}`)).map((e) => [f, e] as const));

describe('image transitions', () => {
  it('covers every pair', () => {
    expect(IMAGE_ALLOWED.length + imageRefused.length).toBe(IMAGE_FROM.length * IMAGE_EVENTS.length);
    expect(imageRefused.length).toBe(7);
  });

  it.each(IMAGE_ALLOWED)('%s --%s--> %s', (from, event, to) => {
    expect(nextImageState(from, event)).toBe(to);
    expect(requireNextImageState(from, event)).toBe(to);
  });

  it.each(imageRefused)('%s --%s--> refused', (from, event) => {
    const r = nextImageState(from, event);
    expect(isAppError(r) && r.code).toBe('invalid_state');
    expect(isAppError(r) && r.message).toMatch(IMAGE_REFUSED_MESSAGE[from]);
    expect(() => requireNextImageState(from, event)).toThrow(IMAGE_REFUSED_MESSAGE[from]);
  });
});
