/** Test helpers for the version store: a fresh store in a temp dir and staged skill folders. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SkillStore } from './store-state';
import { createStagingDir } from './versions';

export interface TestStore extends SkillStore {
  root: string;
  clock: { t: number };
}

const roots: string[] = [];

export function makeStore(): TestStore {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-store-'));
  roots.push(root);
  const clock = { t: 1_700_000_000_000 };
  return { root, storeDir: path.join(root, 'store'), managedRoot: path.join(root, 'managed'), now: () => clock.t, clock };
}

export function cleanupStores(): void {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
}

/** A staging folder inside the store holding `files` (relative path → content). */
export async function stage(store: SkillStore, files: Record<string, string | Buffer>): Promise<string> {
  const dir = await createStagingDir(store);
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

export const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
export const lockOf = (store: SkillStore) => readJson(path.join(store.managedRoot, '.clawhub', 'lock.json'));
export const linkTarget = (store: SkillStore, slug: string) => fs.readlinkSync(path.join(store.managedRoot, slug));

export const V1 = {
  'SKILL.md': '---\nname: demo\ndescription: Demo skill.\n---\n\nold line\nkept line\n',
  'scripts/run.sh': 'echo v1\n',
  'gone.md': 'removed in v2\n',
};
export const V2 = {
  'SKILL.md': '---\nname: demo\ndescription: Demo skill.\n---\n\nnew line\nkept line\n',
  'scripts/run.sh': 'echo v1\n',
  'added.md': 'new in v2\n',
  'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]),
};
