import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { lockFile } from '@/lib/core/dir-lock';
import * as schema from './schema';

export type AppDb = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Notification = (payload: string) => void;

/** One handle over PGlite or PostgreSQL; callers never see which driver is underneath. */
export interface Database {
  kind: 'pglite' | 'postgres';
  /** Where the data lives: a folder for PGlite, the URL without its password for PostgreSQL. */
  location: string;
  db: AppDb;
  /** Runs raw SQL and returns the rows whatever the driver's result shape. */
  rows<T = Record<string, unknown>>(query: SQL): Promise<T[]>;
  listen(channel: string, onMessage: Notification): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Runs `fn` while holding a lock that every replica sharing this database respects
   * (a session advisory lock on PostgreSQL; PGlite has one process, so an in-process queue).
   */
  withLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  /**
   * Runs `fn` holding every lock of `locks` at once, taken in key order (so two callers never
   * deadlock on each other) on one connection; a shared lock excludes only exclusive holders.
   */
  withLocks<T>(locks: readonly LockRequest[], fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface LockRequest {
  key: number;
  /** Held beside other shared holders of the key; only an exclusive holder waits for them (default exclusive). */
  shared?: boolean;
}

/** Sorted by key, one request per key (exclusive when any request of the key is). */
function normalizeLocks(locks: readonly LockRequest[]): LockRequest[] {
  const byKey = new Map<number, boolean>();
  for (const l of locks) byKey.set(l.key, (byKey.get(l.key) ?? true) && !!l.shared);
  return [...byKey].sort((a, b) => a[0] - b[0]).map(([key, shared]) => ({ key, shared }));
}

interface KeyState {
  readers: number;
  writer: boolean;
  queue: { shared: boolean; grant: () => void }[];
}

/** Shared/exclusive locks per key inside this process, granted first come first served. */
function localLocks() {
  const keys = new Map<number, KeyState>();
  const free = (s: KeyState, shared: boolean) => !s.writer && (shared || s.readers === 0);
  const take = (s: KeyState, shared: boolean) => {
    if (shared) s.readers++;
    else s.writer = true;
  };
  const acquire = (key: number, shared: boolean) =>
    new Promise<void>((grant) => {
      let s = keys.get(key);
      if (!s) keys.set(key, (s = { readers: 0, writer: false, queue: [] }));
      if (!s.queue.length && free(s, shared)) {
        take(s, shared);
        grant();
      } else s.queue.push({ shared, grant });
    });
  const release = (key: number, shared: boolean) => {
    const s = keys.get(key)!;
    if (shared) s.readers--;
    else s.writer = false;
    while (s.queue.length && free(s, s.queue[0].shared)) {
      const next = s.queue.shift()!;
      take(s, next.shared);
      next.grant();
    }
    if (!s.readers && !s.writer && !s.queue.length) keys.delete(key);
  };
  return async function withLocalLocks<T>(locks: readonly LockRequest[], fn: () => Promise<T>): Promise<T> {
    const held: LockRequest[] = [];
    try {
      for (const l of locks) {
        await acquire(l.key, !!l.shared);
        held.push(l);
      }
      return await fn();
    } finally {
      for (const l of held.reverse()) release(l.key, !!l.shared);
    }
  };
}

export interface DbOptions {
  databaseUrl?: string;
  pgliteDir: string;
  /** Pool size for PostgreSQL. */
  max?: number;
}

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://(unparseable)';
  }
}

export async function openDatabase(opts: DbOptions): Promise<Database> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts.max ?? 10) : openPglite(opts.pgliteDir);
}

async function openPglite(dir: string): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  // PGlite creates no parent folders, and two processes on one folder corrupt it: whoever opens it
  // directly (scripts, tests) is refused like a second server.
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const lock = lockFile(`${path.resolve(dir)}.lock`, 'PGlite database', dir);
  const client = new PGlite(dir);
  await client.waitReady.catch((e) => {
    lock.release();
    throw e;
  });
  const db = drizzle(client, { schema }) as unknown as AppDb;
  const local = localLocks();
  return {
    kind: 'pglite',
    location: dir,
    db,
    async rows<T>(query: SQL) {
      const res = (await db.execute(query)) as unknown as { rows: T[] };
      return res.rows;
    },
    async listen(channel, onMessage) {
      const unsub = await client.listen(channel, onMessage);
      return async () => unsub();
    },
    async notify(channel, payload) {
      await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    withLock(key, fn) {
      return local([{ key }], fn);
    },
    withLocks(locks, fn) {
      return local(normalizeLocks(locks), fn);
    },
    async close() {
      await client.close();
      lock.release();
    },
  };
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const sql = postgres(url, { max, onnotice: () => {}, connection: { application_name: 'skilldock' } });
  await sql`select 1`;
  const db = drizzle(sql, { schema }) as unknown as AppDb;
  // Session advisory locks are re-entrant per connection, so callers in this process queue first.
  const localLock = localLocks();
  const withPgLocks = <T>(locks: readonly LockRequest[], fn: () => Promise<T>): Promise<T> =>
    localLock(locks, async () => {
      const conn = await sql.reserve();
      const held: LockRequest[] = [];
      try {
        for (const l of locks) {
          if (l.shared) await conn`select pg_advisory_lock_shared(${l.key})`;
          else await conn`select pg_advisory_lock(${l.key})`;
          held.push(l);
        }
        return await fn();
      } finally {
        for (const l of held.reverse()) {
          if (l.shared) await conn`select pg_advisory_unlock_shared(${l.key})`;
          else await conn`select pg_advisory_unlock(${l.key})`;
        }
        conn.release();
      }
    });
  return {
    kind: 'postgres',
    location: redactUrl(url),
    db,
    async rows<T>(query: SQL) {
      const res = (await db.execute(query)) as unknown as T[];
      return Array.from(res);
    },
    async listen(channel, onMessage) {
      const sub = await sql.listen(channel, onMessage);
      return async () => sub.unlisten();
    },
    async notify(channel, payload) {
      await sql.notify(channel, payload);
    },
    withLock(key, fn) {
      return withPgLocks([{ key }], fn);
    },
    withLocks(locks, fn) {
      return withPgLocks(normalizeLocks(locks), fn);
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
