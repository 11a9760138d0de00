// test-phase: both engines. Its subject is the test harness's database on each engine.
// Checks the test harness itself, in both integration phases: each file gets a private database
// with every migration applied on the engine named by SKILLDOCK_TEST_DB, cleanup removes it, and the Docker engine
// that `npm test` exported through DOCKER_HOST answers dockerode.
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import Docker from 'dockerode';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKind, type TestDatabase, testDatabaseUrl } from '@/test/helpers/db';
import { describeDocker } from '@/test/helpers/docker';

describe(`test database helper (${dbKind})`, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await testDatabaseUrl();
  });
  afterAll(async () => {
    await db.cleanup();
  });

  if (dbKind === 'postgres') {
    it('creates a fresh, migrated database on the throwaway cluster and drops it on cleanup', async () => {
      expect(db.dataDir).toBeUndefined();
      const url = new URL(db.url!);
      expect(url.hostname).toBe('127.0.0.1');
      const name = url.pathname.slice(1);
      expect(name).toMatch(/^t_[0-9a-f]{16}$/);

      const sql = postgres(db.url!, { max: 1, onnotice: () => {} });
      const [row] = await sql`select current_database() as db, current_setting('server_version_num')::int as v,
        (select count(*)::int from drizzle.__drizzle_migrations) as applied`;
      expect(row).toMatchObject({ db: name, applied: fs.readdirSync('drizzle').filter((f) => f.endsWith('.sql')).length });
      expect(row.v).toBeGreaterThanOrEqual(150000);
      await sql`create table t (x int)`;
      // An open connection must not block the drop (WITH (FORCE)).
      const other = await testDatabaseUrl();
      await other.cleanup();
      await db.cleanup();
      await sql.end({ timeout: 1 }).catch(() => {});

      const admin = postgres(process.env.DATABASE_URL!, { max: 1 });
      const left = await admin`select datname from pg_database where datname = ${name}`;
      await admin.end();
      expect(left).toHaveLength(0);
    });
  } else {
    it('gives PGlite a fresh data dir holding only a migrated database, and removes it on cleanup', async () => {
      expect(db.url).toBeUndefined();
      expect(fs.readdirSync(db.dataDir!)).toEqual(['pglite']);
      const pg = new PGlite(path.join(db.dataDir!, 'pglite'));
      const r = await pg.query<{ v: number }>(`select current_setting('server_version_num')::int as v`);
      expect(r.rows[0].v).toBeGreaterThanOrEqual(170000);
      const applied = await pg.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
      expect(applied.rows[0].n).toBe(fs.readdirSync('drizzle').filter((f) => f.endsWith('.sql')).length);
      await pg.close();
      await db.cleanup();
      expect(fs.existsSync(db.dataDir!)).toBe(false);
    });
  }
});

describeDocker('Docker engine from DOCKER_HOST', () => {
  it('answers ping and version through dockerode', async () => {
    const docker = new Docker(); // reads DOCKER_HOST like the app does
    expect(String(await docker.ping())).toBe('OK');
    const v = await docker.version();
    expect(v.ApiVersion).toMatch(/^\d+\.\d+$/);
  });
});
