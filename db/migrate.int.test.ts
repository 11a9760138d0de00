// test-phase: both engines. Its subject is migrations, which each engine applies on its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestDatabase, testDatabaseUrl } from '@/test/helpers/db';
import { type Database, openDatabase } from './client';
import { MIGRATIONS_DIR, migrateDatabase } from './migrate';

let tdb: TestDatabase;
let database: Database;
let broken: string;

beforeAll(async () => {
  tdb = await testDatabaseUrl();
  database = await openDatabase({ databaseUrl: tdb.url, pgliteDir: path.join(tdb.dataDir ?? os.tmpdir(), 'db') });
  // The committed migrations plus one that fails half-way: its first statement works, its second does not.
  broken = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
  fs.cpSync(MIGRATIONS_DIR, broken, { recursive: true });
  const journalFile = path.join(broken, 'meta/_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));
  journal.entries.push({ idx: journal.entries.length, version: '7', when: Date.now(), tag: '9999_broken', breakpoints: true });
  fs.writeFileSync(journalFile, JSON.stringify(journal));
  fs.writeFileSync(
    path.join(broken, '9999_broken.sql'),
    'CREATE TABLE half_done (id int);\n--> statement-breakpoint\nALTER TABLE no_such_table ADD COLUMN x int;',
  );
});

afterAll(async () => {
  await database?.close();
  await tdb?.cleanup();
  fs.rmSync(broken, { recursive: true, force: true });
});

it('applies the committed migrations, twice without effect', async () => {
  await migrateDatabase(database);
  await migrateDatabase(database);
  const rows = await database.rows<{ n: number }>(
    sql`select count(*)::int as n from information_schema.tables where table_name in ('users','api_tokens','audit_log','jobs','job_logs','login_throttle')`,
  );
  expect(rows[0].n).toBe(6);
});

it('stops with a clear message on a failing migration and leaves nothing of it behind', async () => {
  await expect(migrateDatabase(database, broken)).rejects.toThrow(/^Database migration failed: .*no_such_table.*Boot stopped/s);
  const rows = await database.rows<{ n: number }>(sql`select count(*)::int as n from information_schema.tables where table_name = 'half_done'`);
  expect(rows[0].n).toBe(0);
});

it('refuses to start without migrations', async () => {
  await expect(migrateDatabase(database, path.join(os.tmpdir(), 'nowhere-' + Date.now()))).rejects.toThrow(/no migrations found/);
});
