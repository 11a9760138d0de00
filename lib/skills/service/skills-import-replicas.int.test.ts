// An archive uploaded through one replica is imported by a job on another whose data dir never saw
// it: the bytes travel through the database's blob store. Two replicas
// cannot share one PGlite, so it runs on PostgreSQL.
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_PERMISSIONS } from '@/lib/auth';
import { loadConfig } from '@/lib/core/config';
import { type Services, setServices, startServices } from '@/lib/services';
import { managedStore } from '@/lib/skills/service/roots';
import { apiUser, jobEnd } from '@/test/helpers/api';
import { freshPostgresDatabase, type TestDatabase } from '@/test/helpers/db';
import { stopTestReplica } from '@/test/helpers/services';
import { jobResult, skillMd, skillsClient } from '@/test/helpers/skills-api';
import { sha256, zipSkill } from '@/test/helpers/skills-archives';

let tdb: TestDatabase;
let tmp: string;
let a: Services;
let b: Services;
let token: string;

async function replica(name: string, worker: boolean): Promise<Services> {
  const config = loadConfig({
    SKILLDOCK_DATA_DIR: path.join(tmp, name),
    DATABASE_URL: tdb.url!,
    LOG_LEVEL: 'warn',
    SKILLDOCK_NFT_TABLE: `skilldock_up_${name}_${process.pid}`,
    SKILLDOCK_DNS_UPSTREAMS: '127.0.0.1:9',
  });
  return startServices({ config, worker });
}

beforeAll(async () => {
  tdb = await freshPostgresDatabase();
  tmp = await mkdtemp(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), 'skilldock-upr-'));
  // A takes the upload and has no worker: only B can run the job.
  a = await replica('a', false);
  b = await replica('b', true);
  ({ token } = await apiUser(a, { email: 'upr-owner@example.com', role: 'owner', tokenName: 'upr', permissions: [...ROLE_PERMISSIONS.owner] }));
}, 120_000);

afterAll(async () => {
  for (const s of [b, a]) if (s) await stopTestReplica(s);
  await tdb?.cleanup();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('uploads across replicas', () => {
  it('an archive uploaded through A is imported by a job on B', async () => {
    const slug = 'replica-upload';
    const archive = zipSkill(slug, { 'SKILL.md': skillMd(slug, 'Uploaded through one replica.'), 'notes.md': 'x'.repeat(300_000) });
    setServices(Promise.resolve(a));
    const api = skillsClient(a, token);
    const up = await api.upload(archive);
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    expect(up.body).toMatchObject({ sha256: sha256(archive), size: archive.length });
    // The upload left nothing in A's data dir: the bytes are in the database.
    expect(fs.existsSync(managedStore(a.config.dataDir).uploadsDir) ? fs.readdirSync(managedStore(a.config.dataDir).uploadsDir) : []).toEqual([]);
    const started = await api.startImport({ source: { kind: 'upload', uploadId: up.body.uploadId } });
    expect(started.status).toBe(202);
    const job = await jobEnd(b, started.body.id, 120_000);
    expect(job.state, job.error ?? '').toBe('succeeded');
    expect(job.title).toBe('Import skill.zip');
    expect(jobResult(job)).toMatchObject({ slug, version: 'v1' });
    // B's data dir holds the version it installed; A's never saw the archive, and has the version from the database's store.
    expect(fs.existsSync(path.join(managedStore(b.config.dataDir).storeDir, slug))).toBe(true);
    expect(fs.existsSync(managedStore(a.config.dataDir).uploadsDir) ? fs.readdirSync(managedStore(a.config.dataDir).uploadsDir) : []).toEqual([]);
    await a.skillStore.fresh();
    expect(fs.readFileSync(path.join(managedStore(a.config.dataDir).managedRoot, slug, 'notes.md'), 'utf8')).toBe('x'.repeat(300_000));
  });
});
