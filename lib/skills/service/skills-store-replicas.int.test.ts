// The managed skill store shared through the database: a skill imported by a job on A is served by
// B's catalog and gateway answer with its files; a rollback through B is what A serves; a removal
// through A is gone from B, with its blobs; a tampered blob is refused; a replica whose data dir was
// wiped rebuilds its store from the database, and a store made before the shared one is uploaded
// at its boot. Two replicas cannot share one PGlite, so it runs on PostgreSQL.
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as fileRoute } from '@/app/api/v1/skills/[id]/file/route';
import { POST as rollbackRoute } from '@/app/api/v1/skills/rollback/route';
import { POST as uninstallRoute } from '@/app/api/v1/skills/uninstall/route';
import { ROLE_PERMISSIONS } from '@/lib/auth';
import { loadConfig } from '@/lib/core/config';
import { type Services, setServices, startServices } from '@/lib/services';
import { managedStore } from '@/lib/skills/service/roots';
import { activeVersion, createStagingDir, installVersion } from '@/lib/skills/store';
import { agentsClient } from '@/test/helpers/agents-api';
import { apiUser } from '@/test/helpers/api';
import { freshPostgresDatabase, type TestDatabase } from '@/test/helpers/db';
import { stopTestReplica, waitFor } from '@/test/helpers/services';
import { jobResult, skillMd, skillsClient } from '@/test/helpers/skills-api';
import { zipSkill } from '@/test/helpers/skills-archives';

let tdb: TestDatabase;
let tmp: string;
let a: Services;
let b: Services;
let token: string;
const SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

function replicaConfig(name: string) {
  return loadConfig({
    SKILLDOCK_DATA_DIR: path.join(tmp, name),
    DATABASE_URL: tdb.url!,
    LOG_LEVEL: 'error',
    SKILLDOCK_SECRET_KEY: SECRET_KEY,
    NEXTAUTH_SECRET: 'store-replicas-auth-secret-of-some-length',
    SKILLDOCK_NFT_TABLE: `skilldock_st_${name}_${process.pid}`,
    SKILLDOCK_DNS_UPSTREAMS: '127.0.0.1:9',
    SKILLDOCK_NETWORK_ENFORCEMENT: 'off',
  });
}

// Only A runs jobs: every import is done by a job on A.
const replica = (name: string, worker: boolean) => startServices({ config: replicaConfig(name), worker });

/** Calls routes of `s` (route handlers find the services through the process-wide slot). */
function on(s: Services) {
  setServices(Promise.resolve(s));
  return { skills: skillsClient(s, token), agents: agentsClient(token) };
}

async function rows<T>(s: Services, q: ReturnType<typeof sql>): Promise<T[]> {
  return s.database.rows<T>(q);
}

async function importOnA(slug: string, files: Record<string, string>, force = false) {
  const job = await on(a).skills.importArchive(zipSkill(slug, files), force ? { force: true } : {});
  expect(job.state, job.error ?? '').toBe('succeeded');
  return jobResult(job) as { slug: string; version: string; id: string };
}

/** The skill of this name in `s`'s catalog once `ok` holds for it (a bounded wait for the change to travel). */
async function served(s: Services, name: string, ok: (detail: { managed: { active: string } } & Record<string, unknown>) => boolean) {
  return waitFor(
    async () => {
      const api = on(s).skills;
      const sk = await api.skill(name);
      if (!sk) return null;
      const d = await api.detail(sk.id);
      return d.status === 200 && ok(d.body) ? d.body : null;
    },
    `${name} as expected in the catalog of ${s.config.dataDir}`,
    30_000,
  );
}

const absent = (s: Services, name: string) =>
  waitFor(async () => !(await on(s).skills.skill(name)) || null, `${name} gone from the catalog of ${s.config.dataDir}`, 30_000);

async function fileOf(s: Services, id: string, rel: string, version?: string): Promise<string> {
  const api = on(s).skills;
  const r = await api.send(fileRoute, 'GET', `/api/v1/skills/${id}/file?path=${rel}${version ? `&version=${version}` : ''}`, { params: { id } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.content as string;
}

beforeAll(async () => {
  tdb = await freshPostgresDatabase();
  tmp = await mkdtemp(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), 'skilldock-str-'));
  a = await replica('a', true);
  b = await replica('b', false);
  ({ token } = await apiUser(a, { email: 'str-owner@example.com', role: 'owner', tokenName: 'str', permissions: [...ROLE_PERMISSIONS.owner] }));
}, 120_000);

afterAll(async () => {
  for (const s of [b, a]) if (s) await stopTestReplica(s).catch(() => undefined);
  await tdb?.cleanup();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe('the managed skill store shared by replicas', () => {
  const slug = 'shared-notes';
  const v1 = { 'SKILL.md': skillMd(slug, 'Shared between replicas.'), 'notes.md': 'first notes\n', 'big.txt': 'x'.repeat(600_000) };
  const v2 = { 'SKILL.md': skillMd(slug, 'Shared between replicas.'), 'notes.md': 'second notes\n' };

  it('a skill imported by a job on A is served by B, in the catalog and to an agent, with its files', async () => {
    const r = await importOnA(slug, v1);
    expect(r.version).toBe('v1');
    const d = await served(b, slug, (x) => x.managed?.active === 'v1');
    expect(await fileOf(b, d.id as string, 'notes.md')).toBe('first notes\n');
    expect(fs.readFileSync(path.join(managedStore(b.config.dataDir).managedRoot, slug, 'big.txt'), 'utf8')).toBe(v1['big.txt']);
    // The agent gateway's answer on B has it, with its files.
    const agents = on(b).agents;
    expect((await agents.create({ id: 'str-agent', name: 'Store agent', skills: [slug] })).status).toBe(201);
    expect(await agents.names('str-agent')).toContain(slug);
    const f = await agents.file('str-agent', slug, 'notes.md');
    expect(f.status, JSON.stringify(f.body)).toBe(200);
    expect(f.body.content).toBe('first notes\n');
  });

  it('a rollback through B is what A serves', async () => {
    expect((await importOnA(slug, v2, true)).version).toBe('v2');
    const onB = await served(b, slug, (x) => x.managed?.active === 'v2');
    expect(await fileOf(b, onB.id as string, 'notes.md')).toBe('second notes\n');
    const rb = await on(b).skills.post(rollbackRoute, '/api/v1/skills/rollback', { slug, version: 'v1' });
    expect(rb.status, JSON.stringify(rb.body)).toBe(200);
    const onA = await served(a, slug, (x) => x.managed?.active === 'v1');
    expect(await fileOf(a, onA.id as string, 'notes.md')).toBe('first notes\n');
    expect(await activeVersion(managedStore(a.config.dataDir), slug)).toBe('v1');
    // The database records it: a replica that starts now serves v1 too.
    const [row] = await rows<{ active: string }>(a, sql`select active from skill_store_slugs where slug = ${slug}`);
    expect(row.active).toBe('v1');
  });

  it('a removal through A is gone from B, and so are its blobs', async () => {
    const shas = (await rows<{ blob_sha256: string }>(a, sql`select blob_sha256 from skill_store_versions where slug = ${slug}`)).map((r) => r.blob_sha256);
    expect(shas).toHaveLength(2);
    const un = await on(a).skills.post(uninstallRoute, '/api/v1/skills/uninstall', { slug });
    expect(un.status, JSON.stringify(un.body)).toBe(200);
    await absent(b, slug);
    expect(fs.existsSync(path.join(managedStore(b.config.dataDir).storeDir, slug))).toBe(false);
    expect(fs.existsSync(path.join(managedStore(b.config.dataDir).managedRoot, slug))).toBe(false);
    const left = await rows<{ n: number }>(a, sql`select count(*)::int as n from blobs where sha256 in ${sql.raw(`('${shas.join("','")}')`)}`);
    expect(left[0].n).toBe(0);
  });

  it('a wiped replica rebuilds its store from the database, refuses a tampered blob, and uploads a store made before', async () => {
    await importOnA('kept-skill', { 'SKILL.md': skillMd('kept-skill', 'Kept.'), 'data.txt': 'kept\n' });
    await importOnA('tampered-skill', { 'SKILL.md': skillMd('tampered-skill', 'Tampered.'), 'data.txt': 'original\n' });
    await served(b, 'kept-skill', (x) => x.managed?.active === 'v1');
    await served(b, 'tampered-skill', (x) => x.managed?.active === 'v1');
    await stopTestReplica(b);
    const dataB = path.join(tmp, 'b');
    await rm(dataB, { recursive: true, force: true });
    // One byte of the tampered skill's blob changes in storage.
    const [t] = await rows<{ blob_sha256: string }>(a, sql`select blob_sha256 from skill_store_versions where slug = 'tampered-skill'`);
    const changed = await rows<{ idx: number }>(
      a,
      sql`update blob_chunks set data = set_byte(data, 600, (get_byte(data, 600) + 1) % 256) where sha256 = ${t.blob_sha256} and idx = 0 returning idx`,
    );
    expect(changed).toHaveLength(1);
    await expect(a.skillStore.blobs.get(t.blob_sha256).then((r) => r.toArray())).rejects.toThrow(/corrupted/);
    // A store from before the shared one: a skill only B's data dir has.
    const old = managedStore(dataB);
    const staged = await createStagingDir(old);
    fs.writeFileSync(path.join(staged, 'SKILL.md'), skillMd('legacy-skill', 'Made before the store was shared.'));
    fs.writeFileSync(path.join(staged, 'legacy.txt'), 'from before\n');
    await installVersion(old, { slug: 'legacy-skill', stagedDir: staged, force: false });

    b = await replica('b', false);
    const kept = await served(b, 'kept-skill', (x) => x.managed?.active === 'v1');
    expect(await fileOf(b, kept.id as string, 'data.txt')).toBe('kept\n');
    expect(await on(b).skills.skill('tampered-skill')).toBeUndefined();
    expect(fs.existsSync(path.join(managedStore(dataB).storeDir, 'tampered-skill'))).toBe(false);
    // A still serves its own copy, untouched.
    expect(fs.readFileSync(path.join(managedStore(a.config.dataDir).managedRoot, 'tampered-skill', 'data.txt'), 'utf8')).toBe('original\n');
    // A change through B would build on a version B could not bring in: refused; a removal is not.
    await expect(b.skillStore.activate('tampered-skill', 'v1')).rejects.toMatchObject({ code: 'conflict' });
    await b.skillStore.remove('tampered-skill');
    expect(await rows(a, sql`select 1 from blobs where sha256 = ${t.blob_sha256}`)).toHaveLength(0);
    await absent(a, 'tampered-skill');
    // The legacy skill went to the database at B's boot, and from there to A.
    const legacy = await served(a, 'legacy-skill', (x) => x.managed?.active === 'v1');
    expect(await fileOf(a, legacy.id as string, 'legacy.txt')).toBe('from before\n');
  });
});

describe('two replicas booting together on stores made before the shared one', () => {
  it('record a slug both have exactly once, and both then serve that one', async () => {
    const extra: Services[] = [];
    try {
      for (const [name, text] of [
        ['c', 'from c\n'],
        ['d', 'from d\n'],
      ]) {
        const st = managedStore(path.join(tmp, name));
        const staged = await createStagingDir(st);
        fs.writeFileSync(path.join(staged, 'SKILL.md'), skillMd('raced-skill', 'Both replicas had it.'));
        fs.writeFileSync(path.join(staged, 'who.txt'), text);
        await installVersion(st, { slug: 'raced-skill', stagedDir: staged, force: false });
      }
      extra.push(...(await Promise.all([replica('c', false), replica('d', false)])));
      const recorded = await rows<{ version: string; content_hash: string }>(
        a,
        sql`select version, content_hash from skill_store_versions where slug = 'raced-skill'`,
      );
      expect(recorded).toHaveLength(1);
      const texts = extra.map((s) => fs.readFileSync(path.join(managedStore(s.config.dataDir).managedRoot, 'raced-skill', 'who.txt'), 'utf8'));
      expect(['from c\n', 'from d\n']).toContain(texts[0]);
      expect(texts[1]).toBe(texts[0]);
      // A, which never had it, serves the recorded one too.
      const onA = await served(a, 'raced-skill', (x) => x.managed?.active === 'v1');
      expect(await fileOf(a, onA.id as string, 'who.txt')).toBe(texts[0]);
    } finally {
      for (const s of extra) await stopTestReplica(s);
    }
  });
});
