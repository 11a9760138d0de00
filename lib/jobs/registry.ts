import type { Actor } from '../auth/actor';
import { minimumRole } from '../auth/permissions';
import { AppError } from '../core/errors';
import type { AnyJobKind, JobHandler, JobKind } from './kind';

export interface RegisteredKind {
  kind: AnyJobKind;
  run: JobHandler<unknown, unknown>;
}

/**
 * The kinds this process can run, each with its handler. Built by the composition root (each
 * domain registers its own kinds), handed to the worker and to what looks kinds up by name.
 */
export class JobRegistry {
  private readonly entries = new Map<string, RegisteredKind>();

  register<P, R, I>(kind: JobKind<P, R, I>, run: JobHandler<P, NoInfer<R>>): this {
    const existing = this.entries.get(kind.name);
    if (existing && existing.kind !== kind) throw new Error(`Two job kinds are named "${kind.name}"`);
    this.entries.set(kind.name, { kind, run: run as JobHandler<unknown, unknown> });
    return this;
  }

  get(name: string): RegisteredKind | undefined {
    return this.entries.get(name);
  }

  /** The kind of that name, or a validation error listing the known ones. */
  require(name: string): RegisteredKind {
    const k = this.entries.get(name);
    if (!k) throw new AppError('validation', `Unknown job kind "${name}". Known kinds: ${[...this.entries.keys()].join(', ') || 'none'}.`);
    return k;
  }

  kinds(): AnyJobKind[] {
    return [...this.entries.values()].map((e) => e.kind);
  }
}

/** The kinds as GET /api/v1/jobs/kinds lists them, with what the asking actor may start. */
export function describeJobKinds(registry: JobRegistry, actor: Actor) {
  return registry.kinds().map((k) => {
    const retry = k.retryPermission ?? k.startPermission ?? null;
    return {
      kind: k.name,
      startable: Boolean(k.startPermission),
      startPermission: k.startPermission ?? null,
      requiredRole: k.startPermission ? minimumRole(k.startPermission) : null,
      canStart: Boolean(k.startPermission && actor.permissions.has(k.startPermission)),
      retryPermission: retry,
      canRetry: Boolean(retry && actor.permissions.has(retry)),
      concurrency: k.concurrency,
      maxAttempts: k.maxAttempts,
      resumable: k.resumable,
    };
  });
}
