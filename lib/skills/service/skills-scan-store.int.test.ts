// Scanner verdicts survive a restart: a catalog stores each verdict by content hash and scanner
// version; a new catalog on the same database (a restarted process) takes the stored verdict instead
// of rescanning, and ignores a verdict of another scanner version.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { skillScanResults } from '@/db/schema';
import { setServices } from '@/lib/services';
import { SCANNER_VERSION } from '@/lib/skills/scanner';
import { SkillCatalog } from '@/lib/skills/service/catalog';
import { apiUser } from '@/test/helpers/api';
import { startTestServices, type TestServices } from '@/test/helpers/services';
import { skillMd, skillsClient, writeSkill } from '@/test/helpers/skills-api';

let t: TestServices;
let tmp: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), 'skilldock-skscan-'));
  t = await startTestServices();
  setServices(Promise.resolve(t.services));
  const { token } = await apiUser(t.services, {
    email: 'scan-store@example.com',
    role: 'admin',
    tokenName: 'scan store',
    permissions: ['skills.read', 'skills.write'],
  });
  const ws = path.join(tmp, 'ws');
  expect((await skillsClient(t.services, token).settings({ workspaceDir: ws, personalDir: path.join(tmp, 'personal') })).status).toBe(200);
  writeSkill(path.join(ws, 'skills'), 'plain-notes', {
    'SKILL.md': skillMd('plain-notes', 'Keeps plain notes.'),
    'scripts/list.sh': '#!/bin/sh\nls -1 "$1"\n',
  });
}, 120_000);
afterAll(async () => {
  await t?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

const restarted = () => new SkillCatalog({ db: t.services.database.db, dataDir: t.dataDir, runtimeDir: t.services.config.runtimeDir });
const skillOf = async (c: SkillCatalog) => (await c.snapshot()).skills.find((s) => s.name === 'plain-notes')!;

it('stores each verdict, reuses it after a restart, and rescans when the scanner version differs', async () => {
  const first = await skillOf(t.services.skills);
  expect(first.scan.verdict).toBe('clean');
  const db = t.services.database.db;
  const [row] = await db.select().from(skillScanResults).where(eq(skillScanResults.contentHash, first.copy.contentHash));
  expect(row).toMatchObject({ scannerVersion: SCANNER_VERSION, verdict: 'clean', filesScanned: 2 });

  // A stored verdict the scanner would never produce for this content: only reuse can show it.
  const marker = { rule: 'prompt-injection', severity: 'warn', file: 'SKILL.md', line: 1, message: 'stored marker', excerpt: 'marker' };
  await db
    .update(skillScanResults)
    .set({ verdict: 'warn', findings: [marker] })
    .where(eq(skillScanResults.contentHash, first.copy.contentHash));
  const second = restarted();
  const reused = await skillOf(second);
  expect(reused.scan.verdict).toBe('warn');
  expect(reused.scan.findings).toEqual([marker]);
  await second.close();

  // Another scanner version's verdict is not trusted: the skill is scanned again and the row replaced.
  await db.update(skillScanResults).set({ scannerVersion: 'older' }).where(eq(skillScanResults.contentHash, first.copy.contentHash));
  const third = restarted();
  const rescanned = await skillOf(third);
  expect(rescanned.scan.verdict).toBe('clean');
  expect(rescanned.scan.findings).toEqual([]);
  await third.close();
  const [after] = await db.select().from(skillScanResults).where(eq(skillScanResults.contentHash, first.copy.contentHash));
  expect(after).toMatchObject({ scannerVersion: SCANNER_VERSION, verdict: 'clean', findings: [] });
});
