// One channel on which every replica announces a change of what replicas serve from memory (the
// skill catalog, agents, exec policies, settings), and on which each replica drops what it keeps of
// it. A notice can be lost (a LISTEN connection reconnecting): every cache that listens here also
// bounds how long it keeps anything, so a lost notice costs at most that lifetime.
import { sql } from 'drizzle-orm';
import type { AppDb, Database } from '@/db/client';
import { logger } from '../core/logger';

export const CHANGES_CHANNEL = 'skilldock_changes';

/**
 * What changed: each topic's listeners know which of their caches it concerns. `skills`: the skill
 * catalog. `agents`: an agent's row or the agent defaults (the id is the agent's; none for the
 * defaults), which the gateway's poll keeps for a moment. Exec policies and settings are read from
 * their rows on every use; a new cache adds its topic here.
 */
export type ChangeTopic = 'skills' | 'agents';
// process-wide: a constant table, never written
const TOPICS = new Set<string>(['skills', 'agents'] satisfies ChangeTopic[]);

export type ChangeHandler = (id: string | null) => void;

/**
 * The feed of each database handle in this process, so a change is in force here once its call
 * returns; on globalThis, as server.ts and Next's route bundles each load their own copy of this module.
 */
// process-wide: a bus of this process on globalThis (see above); each feed is keyed by the database handle its service owns
const feeds: WeakMap<object, ChangeFeed> = ((globalThis as Record<symbol, unknown>)[Symbol.for('skilldock.changeFeeds')] ??= new WeakMap<
  object,
  ChangeFeed
>()) as WeakMap<object, ChangeFeed>;

/**
 * Tells every replica (this one at once, the others on commit) that `topic` changed, `id` naming
 * the one thing when there is one. Inside a transaction pass the transaction: the others hear of
 * it only once it commits (this process then hears it from the database, not at once).
 */
export async function publishChange(db: Pick<AppDb, 'execute'>, topic: ChangeTopic, id?: string): Promise<void> {
  for (const f of localPublishers) f(topic, id ?? null);
  feeds.get(db)?.dispatch(topic, id ?? null);
  await db.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${id ? `${topic}:${id}` : topic})`);
}

type LocalPublisher = (topic: ChangeTopic, id: string | null) => void;
// process-wide: a bus of this process on globalThis, so the copies of this module in server.ts and the route bundles hear each other
const localPublishers: Set<LocalPublisher> = ((globalThis as Record<symbol, unknown>)[Symbol.for('skilldock.localPublishers')] ??=
  new Set<LocalPublisher>()) as Set<LocalPublisher>;

/**
 * Hears every change this process publishes as it is published, inside its transaction (before the
 * commit): a cache drops what it concerns and keeps nothing of it until the committed notice
 * arrives on its feed, so the change is in force here once the call that made it returns.
 */
export function onLocalPublish(f: LocalPublisher): () => void {
  localPublishers.add(f);
  return () => localPublishers.delete(f);
}

/** This process's listener on the change channel for one database; handlers subscribe by topic. */
export class ChangeFeed {
  private readonly handlers = new Map<string, Set<ChangeHandler>>();
  private unlisten: (() => Promise<void>) | null = null;

  constructor(private readonly database: Pick<Database, 'db' | 'listen'>) {}

  async start(): Promise<void> {
    feeds.set(this.database.db, this);
    this.unlisten = await this.database.listen(CHANGES_CHANNEL, (payload) => {
      const at = payload.indexOf(':');
      const topic = at < 0 ? payload : payload.slice(0, at);
      if (TOPICS.has(topic)) this.dispatch(topic as ChangeTopic, at < 0 ? null : payload.slice(at + 1));
    });
  }

  on(topic: ChangeTopic, fn: ChangeHandler): () => void {
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(fn);
    return () => set.delete(fn);
  }

  dispatch(topic: ChangeTopic, id: string | null): void {
    for (const fn of this.handlers.get(topic) ?? []) {
      try {
        fn(id);
      } catch (e) {
        logger.warn('a change listener failed', { topic, error: String(e) });
      }
    }
  }

  async stop(): Promise<void> {
    if (feeds.get(this.database.db) === this) feeds.delete(this.database.db);
    await this.unlisten?.();
    this.unlisten = null;
  }
}
