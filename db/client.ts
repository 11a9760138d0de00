import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
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
  close(): Promise<void>;
}

/** Serialises callers per key inside this process. */
function localLocks() {
  const tails = new Map<number, Promise<unknown>>();
  return async function withLocalLock<T>(key: number, fn: () => Promise<T>): Promise<T> {
    const prev = tails.get(key) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
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
  // PGlite creates no parent folders.
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const client = new PGlite(dir);
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as AppDb;
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
    withLock: localLocks(),
    async close() {
      await client.close();
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
    async withLock(key, fn) {
      const local = localLock;
      return local(key, async () => {
        const conn = await sql.reserve();
        try {
          await conn`select pg_advisory_lock(${key})`;
          try {
            return await fn();
          } finally {
            await conn`select pg_advisory_unlock(${key})`;
          }
        } finally {
          conn.release();
        }
      });
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}
