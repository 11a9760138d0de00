// Three replicas booting at the same moment on an empty database with a first owner from the
// environment: every one finishes its boot (migrations and the owner bootstrap serialise on the
// database, never wait on themselves), and exactly one owner exists.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { users } from '@/db/schema';
import { loadConfig } from '@/lib/core/config';
import { type Services, startServices, stopServices } from '@/lib/services';
import { freshPostgresDatabase, type TestDatabase } from '@/test/helpers/db';

let database: TestDatabase | undefined;
const started: Services[] = [];
const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(started.map((s) => stopServices(s)));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  await database?.cleanup();
});

it('three replicas boot together on an empty database with one first owner', async () => {
  database = await freshPostgresDatabase(process.env.DATABASE_URL_TEST);
  const boot = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'skilldock-boot-'));
    dirs.push(dir);
    const s = await startServices({
      config: loadConfig({
        SKILLDOCK_DATA_DIR: dir,
        DATABASE_URL: database!.url,
        LOG_LEVEL: 'warn',
        SKILLDOCK_NETWORK_ENFORCEMENT: 'off',
        SKILLDOCK_ADMIN_EMAIL: 'Owner@Example.com',
        SKILLDOCK_ADMIN_PASSWORD: 'correct horse battery staple',
      }),
      worker: false,
    });
    started.push(s);
    return s;
  };
  const replicas = await Promise.all([boot(), boot(), boot()]);
  expect(new Set(replicas.map((s) => s.replica.id)).size).toBe(3);
  expect(new Set(replicas.map((s) => s.installationId)).size).toBe(1);
  const rows = await replicas[0]!.database.db.select({ email: users.email, role: users.role }).from(users);
  expect(rows).toEqual([{ email: 'owner@example.com', role: 'owner' }]);
}, 120_000);
