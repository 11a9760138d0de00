// test-phase: both engines. Its subject is the skill store rebuilt from each engine's blobs.
// One replica's store folder is a cache of the database's store: a store made before the shared one is recorded at boot with its pin; a wiped store
// folder is rebuilt at the next boot, files, active version and pin alike; a removed skill stays
// removed, and its blob is gone.
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@/lib/core/config';
import { type Services, startServices, stopServices } from '@/lib/services';
import { managedStore } from '@/lib/skills/service/roots';
import { activeVersion, createStagingDir, installVersion, readLock, setPinned } from '@/lib/skills/store';
import { type TestDatabase, testDatabaseUrl } from '@/test/helpers/db';
import { skillMd } from '@/test/helpers/skills-api';

let tdb: TestDatabase;
let dataDir: string;
let s: Services | null = null;

const boot = async () =>
  (s = await startServices({
    config: loadConfig({
      SKILLDOCK_DATA_DIR: dataDir,
      ...(tdb.url ? { DATABASE_URL: tdb.url } : {}),
      LOG_LEVEL: 'error',
      SKILLDOCK_NETWORK_ENFORCEMENT: 'off',
      SKILLDOCK_DNS_UPSTREAMS: '127.0.0.1:9',
    }),
    worker: false,
  }));

const stop = async () => {
  if (s) await stopServices(s);
  s = null;
};

async function stageSkill(name: string, files: Record<string, string>): Promise<string> {
  const dir = await createStagingDir(managedStore(dataDir));
  fs.writeFileSync(path.join(dir, 'SKILL.md'), skillMd(name, `The ${name} skill.`));
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, rel), text);
  return dir;
}

const store = () => managedStore(dataDir);
const rowsOf = <T>(q: ReturnType<typeof sql>) => s!.database.rows<T>(q);

beforeAll(async () => {
  tdb = await testDatabaseUrl();
  dataDir = tdb.dataDir ?? (await mkdtemp(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), 'skilldock-srb-')));
}, 60_000);

afterAll(async () => {
  await stop().catch(() => undefined);
  await tdb?.cleanup();
  if (!tdb?.dataDir && dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('the store folder as a cache of the database', () => {
  it('records a store made before the shared one at boot, with its versions, active version and pin', async () => {
    // Two versions and a pin, made by a Skilldock that kept its store in the data dir only.
    await installVersion(store(), { slug: 'legacy', stagedDir: await stageSkill('legacy', { 'a.txt': 'one\n' }), force: false });
    await installVersion(store(), { slug: 'legacy', stagedDir: await stageSkill('legacy', { 'a.txt': 'two\n' }), force: true });
    await setPinned(store(), 'legacy', true, 'reviewed');
    await boot();
    const versions = await rowsOf<{ version: string }>(sql`select version from skill_store_versions where slug = 'legacy' order by version`);
    expect(versions.map((v) => v.version)).toEqual(['v1', 'v2']);
    const [row] = await rowsOf<{ active: string; pinned: boolean; pin_reason: string }>(
      sql`select active, pinned, pin_reason from skill_store_slugs where slug = 'legacy'`,
    );
    expect(row).toEqual({ active: 'v2', pinned: true, pin_reason: 'reviewed' });
  });

  it('rebuilds a wiped store folder at the next boot: files, active version and pin', async () => {
    await s!.skillStore.install({ slug: 'second', stagedDir: await stageSkill('second', { 'b.txt': 'bee\n' }), force: false });
    await s!.skillStore.activate('legacy', 'v1');
    await stop();
    await rm(path.join(dataDir, 'skills'), { recursive: true, force: true });
    await boot();
    expect(await activeVersion(store(), 'legacy')).toBe('v1');
    expect(fs.readFileSync(path.join(store().managedRoot, 'legacy', 'a.txt'), 'utf8')).toBe('one\n');
    expect(fs.readFileSync(path.join(store().storeDir, 'legacy', 'v2', 'a.txt'), 'utf8')).toBe('two\n');
    expect(fs.readFileSync(path.join(store().managedRoot, 'second', 'b.txt'), 'utf8')).toBe('bee\n');
    expect((await readLock(store().managedRoot)).skills.legacy).toMatchObject({ pinned: true, pinReason: 'reviewed' });
    const names = (await s!.skills.snapshot()).skills.map((k) => k.name);
    expect(names).toEqual(expect.arrayContaining(['legacy', 'second']));
  });

  it('a removed skill stays removed across a boot, and its blob is gone', async () => {
    const [v] = await rowsOf<{ blob_sha256: string }>(sql`select blob_sha256 from skill_store_versions where slug = 'second'`);
    await s!.skillStore.remove('second');
    expect(await rowsOf(sql`select 1 from blobs where sha256 = ${v.blob_sha256}`)).toHaveLength(0);
    await stop();
    await boot();
    expect(fs.existsSync(path.join(store().storeDir, 'second'))).toBe(false);
    expect((await s!.skills.snapshot()).skills.map((k) => k.name)).not.toContain('second');
    await expect(s!.skillStore.remove('second')).rejects.toMatchObject({ code: 'not_found' });
  });
});
