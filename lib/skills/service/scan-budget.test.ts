// A scan cut off by its time budget blocks the skill for that build only: the verdict is not kept,
// and the next build (with a budget it fits in) scans the skill again and keeps that verdict.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTmp, writeSkill } from '../catalog/testutil';
import { createHostTarget } from '../gating';
import { closeScanPool, configureScanPool } from '../scanner';
import type { ScanResult } from '../types';
import { type BuildInput, buildCatalog } from './build';

let tmp: string;
let input: BuildInput;
beforeEach(() => {
  tmp = makeTmp();
  const root = path.join(tmp, 'skills');
  const big = `${'echo $HOME curl wget base64 '.repeat(30_000)}\n`;
  writeSkill(path.join(root, 'heavy'), 'heavy', { 'a.sh': big, 'b.sh': big, 'c.sh': big });
  input = {
    roots: [{ kind: 'workspace', path: root, precedence: 0 }],
    discover: { allowSymlinkTargets: [], maxCandidatesPerRoot: 300, maxSkillFileBytes: 256_000, groupDepth: 1 },
    config: {},
    entries: new Map(),
    acks: new Map(),
    target: createHostTarget({ env: {} }),
    scans: new Map<string, ScanResult>(),
  };
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));
afterAll(() => closeScanPool());

describe('scan time budget in the catalog build', () => {
  it('blocks a skill whose scan runs out of budget, does not keep that verdict, and keeps the next one', async () => {
    configureScanPool({ size: 1, budgetMs: 1 });
    const first = await buildCatalog(input);
    const heavy = first.skills.find((s) => s.name === 'heavy')!;
    expect(heavy.scan).toMatchObject({ verdict: 'error', timedOut: true, error: 'The scan did not finish within 0.001 s.' });
    expect(heavy.status).toBe('blocked');
    expect(input.scans.has(heavy.copy.contentHash)).toBe(false);

    configureScanPool({ size: 1, budgetMs: 120_000 });
    const second = await buildCatalog(input);
    const again = second.skills.find((s) => s.name === 'heavy')!;
    expect(again.scan.verdict).not.toBe('error');
    expect(input.scans.get(again.copy.contentHash)).toBe(again.scan);
  }, 180_000);
});
