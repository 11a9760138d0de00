import { AppError } from '../core/errors';
import type { JobKind } from './types';

const KEY = Symbol.for('skilldock.jobKinds');
type Registry = Map<string, JobKind<unknown>>;
const g = globalThis as unknown as Record<symbol, Registry | undefined>;
/** Shared across bundles (server.ts and Next's route bundles load this module separately). */
const kinds: Registry = (g[KEY] ??= new Map());

export function registerJobKind<P>(def: JobKind<P>): void {
  kinds.set(def.kind, def as JobKind<unknown>);
}

export function getJobKind(kind: string): JobKind<unknown> {
  const k = kinds.get(kind);
  if (!k) throw new AppError('VALIDATION', `Unknown job kind "${kind}". Known kinds: ${[...kinds.keys()].join(', ') || 'none'}.`);
  return k;
}

export const listJobKinds = (): JobKind<unknown>[] => [...kinds.values()];
