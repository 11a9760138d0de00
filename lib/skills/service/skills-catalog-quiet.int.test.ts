// Full catalog builds that take the root watcher's word: while it saw nothing since the last full
// build began, kept copies are reused without the per-file stat pass; a write just before a build
// (long before the debounced report) ends that, an explicit refresh never takes the word, and with
// the watcher off every build stats (PGlite and PostgreSQL).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setServices } from '@/lib/services';
import { SkillCatalog } from '@/lib/skills/service/catalog';
import { apiUser } from '@/test/helpers/api';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { type SkillsClient, skillMd, skillsClient, writeSkill } from '@/test/helpers/skills-api';

const NAME = 'quiet-notes';
let t: TestServices;
let api: SkillsClient;
let tmp: string;
let md: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), 'skilldock-skquiet-'));
  t = await startTestServices();
  setServices(Promise.resolve(t.services));
  const { token } = await apiUser(t.services, { email: 'quiet@example.com', role: 'admin', tokenName: 'quiet', permissions: ['skills.read', 'skills.write'] });
  api = skillsClient(t.services, token);
  const ws = path.join(tmp, 'ws');
  // A debounce far longer than the test: the watcher's reports never reach the catalog, only its raw events count.
  const put = await api.settings({ workspaceDir: ws, personalDir: path.join(tmp, 'personal'), watch: true, watchDebounceMs: 10_000 });
  expect(put.status).toBe(200);
  writeSkill(path.join(ws, 'skills'), NAME, { 'SKILL.md': skillMd(NAME, 'First description.') });
  writeSkill(path.join(ws, 'skills'), 'other-notes', { 'SKILL.md': skillMd('other-notes', 'Unrelated.') });
  md = path.join(ws, 'skills', NAME, 'SKILL.md');
}, 120_000);
afterAll(async () => {
  await t?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

// Identities trusted at once (files just written are otherwise listed again for 3 s whatever the watcher says).
const catalog = () => new SkillCatalog({ db: t.services.database.db, dataDir: t.dataDir, runtimeDir: t.services.config.runtimeDir, racyMs: 0 });
const skillOf = async (c: SkillCatalog) => (await c.snapshot()).skills.find((s) => s.name === NAME)!;
const fullBuild = (c: SkillCatalog) => {
  c.invalidate();
  return skillOf(c);
};

it('reuses kept copies on a quiet watcher, and sees a write made right before a build', async () => {
  const c = catalog();
  try {
    await skillOf(c); // starts the watcher: that build has nothing to vouch for it
    expect(c.builds).toEqual({ full: expect.any(Number), quiet: 0 });
    await c.watching();
    const marked = await fullBuild(c); // a build once the watcher is ready leaves a mark
    const q = c.builds.quiet;
    const quiet = await fullBuild(c);
    expect(c.builds.quiet).toBe(q + 1);
    expect(quiet).toBe(marked);

    fs.writeFileSync(md, skillMd(NAME, 'Second description, written just before the build.'));
    const changed = await fullBuild(c);
    expect(c.builds.quiet).toBe(q + 1);
    expect(changed.copy.parsed.manifest.description).toBe('Second description, written just before the build.');

    const again = await fullBuild(c);
    expect(c.builds.quiet).toBe(q + 2);
    expect(again).toBe(changed);
    const full = c.builds.full;
    await c.refresh(); // an explicit refresh stats every file
    expect(c.builds).toEqual({ full: full + 1, quiet: q + 2 });
  } finally {
    await c.close();
  }
});

it('stats every file on every build with the watcher off', async () => {
  expect((await api.settings({ watch: false })).status).toBe(200);
  const c = catalog();
  try {
    await skillOf(c);
    await fullBuild(c);
    fs.writeFileSync(md, skillMd(NAME, 'Third description, no watcher running.'));
    const changed = await fullBuild(c);
    expect(changed.copy.parsed.manifest.description).toBe('Third description, no watcher running.');
    expect(c.builds).toEqual({ full: 3, quiet: 0 });
  } finally {
    await c.close();
  }
});
