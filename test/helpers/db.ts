// A fresh, private database for one integration test file, on the engine the phase runs on.
//
//   const db = await testDatabaseUrl();       // in beforeAll
//   ... PGlite at db.dataDir, or postgres-js at db.url ...
//   await db.cleanup();                        // in afterAll (close your own clients first)
//
// `npm test` runs the integration project twice: SKILLDOCK_TEST_DB=pglite, then
// SKILLDOCK_TEST_DB=postgres with DATABASE_URL pointing at the throwaway cluster it started.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { openDatabase } from '@/db/client';
import { MIGRATIONS_DIR, migrateDatabase } from '@/db/migrate';

export type TestDbKind = 'pglite' | 'postgres';

export const dbKind: TestDbKind = parseKind(process.env.SKILLDOCK_TEST_DB);

function parseKind(v: string | undefined): TestDbKind {
  const kind = v ?? 'pglite';
  if (kind !== 'pglite' && kind !== 'postgres') {
    throw new Error(`SKILLDOCK_TEST_DB must be "pglite" or "postgres", not ${JSON.stringify(kind)}`);
  }
  return kind;
}

export interface TestDatabase {
  /** postgres://… of a new database with every migration applied (postgres); undefined for PGlite. */
  url: string | undefined;
  /** A new data dir whose PGlite database (`<dataDir>/pglite`) has every migration applied (pglite); undefined for postgres. */
  dataDir: string | undefined;
  /** Drops the database (forcing other connections off) or removes the directory. Idempotent. */
  cleanup: () => Promise<void>;
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let p: Promise<void> | undefined;
  return () => (p ??= fn());
}

function adminUrl(): string {
  const url = process.env.DATABASE_URL ?? process.env.DATABASE_URL_TEST;
  if (!url) {
    throw new Error('SKILLDOCK_TEST_DB=postgres needs DATABASE_URL (or DATABASE_URL_TEST): run the tests with `npm test`');
  }
  return url;
}

async function withAdmin<T>(url: string, fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    return await fn(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

/** A new database on the cluster (a copy of `template` when named), dropped on cleanup. */
async function createPostgresDatabase(admin: string, template?: string): Promise<TestDatabase> {
  // Lower-case hex only: a safe identifier without quoting.
  const name = `t_${randomBytes(8).toString('hex')}`;
  await withAdmin(admin, (sql) => sql.unsafe(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`));
  const u = new URL(admin);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    dataDir: undefined,
    cleanup: once(async () => {
      await withAdmin(admin, (sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    }),
  };
}

/** A new, empty database on the PostgreSQL cluster of `npm test` (DATABASE_URL_TEST), whatever the phase. */
export function freshPostgresDatabase(admin = adminUrl()): Promise<TestDatabase> {
  return createPostgresDatabase(admin);
}

/**
 * A PostgreSQL database with every migration applied, made once per set of migrations on the
 * cluster and cloned for each test file (CREATE DATABASE … TEMPLATE copies its files; migrating a
 * new database costs a file about half a second). Built under a private name and renamed, so two
 * workers never clone a half-made one.
 */
async function postgresTemplate(admin: string): Promise<string> {
  const name = `t_tpl_${migrationsDigest()}`;
  const exists = async () => (await withAdmin(admin, (sql) => sql`select 1 from pg_database where datname = ${name}`)).length > 0;
  if (await exists()) return name;
  const building = await freshPostgresDatabase(admin);
  const database = await openDatabase({ databaseUrl: building.url, pgliteDir: '' });
  try {
    await migrateDatabase(database);
  } finally {
    await database.close();
  }
  const buildingName = new URL(building.url!).pathname.slice(1);
  try {
    await withAdmin(admin, (sql) => sql.unsafe(`ALTER DATABASE ${buildingName} RENAME TO ${name}`));
  } catch (e) {
    await building.cleanup();
    if (!(await exists())) throw e;
  }
  return name;
}

/** A new database cloned from the migrated template, dropped on cleanup. */
async function migratedPostgresDatabase(admin = adminUrl()): Promise<TestDatabase> {
  return createPostgresDatabase(admin, await postgresTemplate(admin));
}

/** The committed migrations' identity: a template made from other migrations is never used. */
function migrationsDigest(): string {
  const h = createHash('sha256');
  const files = fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  for (const f of [...files, path.join('meta', '_journal.json')]) h.update(f).update(fs.readFileSync(path.join(MIGRATIONS_DIR, f)));
  return h.digest('hex').slice(0, 16);
}

/**
 * A PGlite database with every migration applied, made once per set of migrations and copied for
 * each test file: a fresh PGlite spends about two seconds in initdb, a copy a tenth of that. Built
 * beside and renamed into place, so concurrent test processes never see a half-made one.
 */
async function pgliteTemplate(root: string): Promise<string> {
  const dir = path.join(root, `pglite-template-${migrationsDigest()}`);
  if (fs.existsSync(path.join(dir, 'ready'))) return dir;
  const building = `${dir}.building-${process.pid}-${randomBytes(4).toString('hex')}`;
  const database = await openDatabase({ pgliteDir: path.join(building, 'pglite') });
  try {
    await migrateDatabase(database);
  } finally {
    await database.close();
  }
  fs.writeFileSync(path.join(building, 'ready'), '');
  try {
    fs.renameSync(building, dir);
  } catch (e) {
    fs.rmSync(building, { recursive: true, force: true });
    if (!fs.existsSync(path.join(dir, 'ready'))) throw e;
  }
  return dir;
}

export async function testDatabaseUrl(): Promise<TestDatabase> {
  if (dbKind === 'postgres') return migratedPostgresDatabase();
  // SKILLDOCK_TEST_TMPDIR (set by `npm test`) is removed at teardown, even after a killed run.
  const root = process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir();
  const dataDir = await mkdtemp(path.join(root, 'pglite-'));
  // The data dir's database, already migrated (at <data dir>/pglite, where the services open it).
  fs.cpSync(path.join(await pgliteTemplate(root), 'pglite'), path.join(dataDir, 'pglite'), { recursive: true });
  return {
    url: undefined,
    dataDir,
    cleanup: once(() => rm(dataDir, { recursive: true, force: true })),
  };
}
