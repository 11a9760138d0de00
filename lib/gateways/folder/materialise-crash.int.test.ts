// Crash consistency of the skill-folder materialiser: a child putting v2 over v1 is SIGKILLed while
// writing the staging folder, after staging, and between the two renames of the swap. Afterwards
// the folder is v1 or v2 whole (never a mix), recoverLeftovers leaves nothing behind, and a second
// put finishes with v2.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { folderDigest, putSkillFolder, readMarker, recoverLeftovers } from './materialise';

const CHILD = path.resolve('test/helpers/folder-crash-child.ts');
const FILES = 30;

function childRun(cfg: Record<string, unknown>, marker: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify({ ...cfg, marker })], {
      stdio: ['ignore', 'ignore', 'pipe'],
      cwd: process.cwd(),
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setInterval(() => {
      const m = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '';
      if (m && m !== 'done') {
        clearInterval(timer);
        child.kill('SIGKILL');
      }
    }, 10);
    child.on('exit', (code) => {
      clearInterval(timer);
      const m = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : '';
      if (!m) return reject(new Error(`the child ended (${code}) without reaching a step: ${stderr.slice(-2000)}`));
      resolve(m === 'done' ? null : m);
    });
  });
}

const files = (version: string) =>
  Array.from({ length: FILES }, (_, i) => ({ path: `dir${i % 3}/file-${i}.txt`, mode: 0o644, data: Buffer.from(`${version}\n`.repeat(64)) }));

/** Every file of the folder holds the same version (and there are all of them), else throws. */
function versionOf(dir: string): string {
  const seen = new Set<string>();
  let count = 0;
  for (const sub of fs.readdirSync(dir)) {
    if (!sub.startsWith('dir')) continue;
    for (const f of fs.readdirSync(path.join(dir, sub))) {
      seen.add(fs.readFileSync(path.join(dir, sub, f), 'utf8').split('\n')[0] as string);
      count++;
    }
  }
  if (seen.size !== 1 || count !== FILES) throw new Error(`mixed folder: versions ${[...seen]}, ${count} files`);
  return [...seen][0] as string;
}

describe('SIGKILL during a skill folder put', () => {
  for (const pauseAt of ['file', 'staged', 'old-moved'] as const) {
    it(`killed at "${pauseAt}": the folder is v1 or v2 whole, and recovery + a second put finish`, async () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), `skilldock-folder-crash-${pauseAt}-`));
      try {
        const v1 = files('v1');
        await putSkillFolder(root, { name: 'crashy-skill', digest: folderDigest(v1), files: v1 });
        const marker = path.join(root, '..', `${path.basename(root)}.marker`);
        const paused = await childRun({ root, name: 'crashy-skill', version: 'v2', files: FILES, pauseAt }, marker);
        fs.rmSync(marker, { force: true });
        expect(paused).toBe(pauseAt);
        const leftovers = fs.readdirSync(root).filter((e) => e.startsWith('.skilldock-'));
        expect(leftovers.length).toBeGreaterThan(0);
        if (pauseAt === 'old-moved') expect(fs.existsSync(path.join(root, 'crashy-skill'))).toBe(false);

        const report = await recoverLeftovers(root);
        expect(report.restored).toEqual(pauseAt === 'old-moved' ? ['crashy-skill'] : []);
        expect(fs.readdirSync(root)).toEqual(['crashy-skill']);
        expect(versionOf(path.join(root, 'crashy-skill'))).toBe('v1');
        expect((await readMarker(root, 'crashy-skill'))?.digest).toBe(folderDigest(v1));

        const v2 = files('v2');
        expect(await putSkillFolder(root, { name: 'crashy-skill', digest: folderDigest(v2), files: v2 })).toBe('written');
        expect(versionOf(path.join(root, 'crashy-skill'))).toBe('v2');
        expect(fs.readdirSync(root)).toEqual(['crashy-skill']);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    });
  }

  it('a child that is not killed finishes the put (the harness itself works)', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-folder-crash-none-'));
    try {
      const marker = path.join(root, '..', `${path.basename(root)}.marker`);
      expect(await childRun({ root, name: 'whole', version: 'v9', files: FILES, pauseAt: 'never' }, marker)).toBeNull();
      fs.rmSync(marker, { force: true });
      expect(versionOf(path.join(root, 'whole'))).toBe('v9');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
