// Work one replica asks of the holder of a host lease, through the database: the request is a
// host_requests row and a NOTIFY on the holder's channel; the holder runs it, writes its answer on
// the row and notifies back. A lost notice is covered by polling the row (requester) and by the
// holder reading every pending row of its key when it takes the lease.
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Database } from '@/db/client';
import { hostRequests } from '@/db/schema';
import { AppError, type ErrorCode, isAppError } from '../core/errors';
import { describeError, logger } from '../core/logger';

export const HOST_REQUEST_CHANNEL = 'skilldock_host_request';
export const HOST_DONE_CHANNEL = 'skilldock_host_done';
const POLL_MS = 1000;

export type HostRequestHandler = (kind: string, payload: unknown) => Promise<unknown>;

interface Failure {
  code: string;
  message: string;
}

/** One per replica: asks other replicas' leases and serves its own. */
export class HostRequests {
  private readonly waiting = new Map<number, () => void>();
  private readonly served = new Map<string, { handler: HostRequestHandler; chain: Promise<void>; again: boolean; running: boolean }>();
  private unlisten: (() => Promise<void>)[] = [];
  private started: Promise<void> | undefined;

  constructor(private readonly database: Database) {}

  private start(): Promise<void> {
    this.started ??= (async () => {
      this.unlisten.push(
        await this.database.listen(HOST_DONE_CHANNEL, (p) => this.waiting.get(Number(p))?.()),
        await this.database.listen(HOST_REQUEST_CHANNEL, (key) => this.kick(key)),
      );
    })();
    return this.started;
  }

  /**
   * Runs `kind` on the holder of `key` and answers its result; the holder's AppError comes back as
   * one. When nobody answers within `timeoutMs` the request is withdrawn and `noHolder` is thrown.
   */
  async ask(key: string, kind: string, payload: unknown, opts: { timeoutMs: number; noHolder: () => string | Promise<string> }): Promise<unknown> {
    await this.start();
    const db = this.database.db;
    const [row] = await db
      .insert(hostRequests)
      .values({ leaseKey: key, kind, payload: payload ?? null })
      .returning({ id: hostRequests.id });
    const id = row!.id;
    const end = Date.now() + opts.timeoutMs;
    try {
      await this.database.notify(HOST_REQUEST_CHANNEL, key);
      for (;;) {
        const [r] = await db.select().from(hostRequests).where(eq(hostRequests.id, id));
        if (r?.doneAt) {
          if (r.ok) return r.result;
          const f = (r.result ?? {}) as Partial<Failure>;
          throw new AppError((f.code as ErrorCode) ?? 'internal', f.message ?? `The ${kind} request failed on the replica that holds ${key}.`);
        }
        if (Date.now() >= end) {
          // Withdrawn, so a holder that comes late does not run what nobody waits for.
          const gone = await db
            .delete(hostRequests)
            .where(and(eq(hostRequests.id, id), isNull(hostRequests.doneAt)))
            .returning({ id: hostRequests.id });
          if (gone.length) throw new AppError('unavailable', await opts.noHolder());
          continue;
        }
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.min(POLL_MS, Math.max(0, end - Date.now())));
          this.waiting.set(id, () => {
            clearTimeout(t);
            resolve();
          });
        });
      }
    } finally {
      this.waiting.delete(id);
      await db
        .delete(hostRequests)
        .where(eq(hostRequests.id, id))
        .catch(() => undefined);
    }
  }

  /** Serves the requests of `key` (while this replica holds it): the pending ones now, new ones on notice. */
  async serve(key: string, handler: HostRequestHandler): Promise<void> {
    await this.start();
    this.served.set(key, { handler, chain: Promise.resolve(), again: false, running: false });
    this.kick(key);
  }

  unserve(key: string): void {
    this.served.delete(key);
  }

  /** Drains the pending rows of a key one at a time; a notice during a drain runs one more. */
  private kick(key: string): void {
    const s = this.served.get(key);
    if (!s) return;
    if (s.running) {
      s.again = true;
      return;
    }
    s.running = true;
    s.chain = (async () => {
      do {
        s.again = false;
        await this.drain(key, s.handler).catch((e) => logger.warn('host requests could not be read', { key, err: describeError(e) }));
      } while (s.again && this.served.get(key) === s);
      s.running = false;
    })();
  }

  private async drain(key: string, handler: HostRequestHandler): Promise<void> {
    const db = this.database.db;
    const pending = await db
      .select()
      .from(hostRequests)
      .where(and(eq(hostRequests.leaseKey, key), isNull(hostRequests.doneAt)))
      .orderBy(asc(hostRequests.id));
    for (const r of pending) {
      if (!this.served.has(key)) return;
      let ok = true;
      let result: unknown;
      try {
        result = (await handler(r.kind, r.payload)) ?? null;
      } catch (e) {
        ok = false;
        result = { code: isAppError(e) ? e.code : 'internal', message: e instanceof Error ? e.message : String(e) } satisfies Failure;
      }
      await db.update(hostRequests).set({ doneAt: new Date(), ok, result }).where(eq(hostRequests.id, r.id));
      await this.database.notify(HOST_DONE_CHANNEL, String(r.id));
    }
  }

  async stop(): Promise<void> {
    this.served.clear();
    const fns = this.unlisten;
    this.unlisten = [];
    await Promise.allSettled(fns.map((f) => f()));
  }
}
