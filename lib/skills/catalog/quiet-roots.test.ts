// Discovery on a root a running watcher vouches for: kept copies are reused without the per-file
// stat pass, a change the watcher sees ends that, and without the watcher's word the stat pass runs.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SkillRoot } from '../types';
import { CopyCache } from './copy-cache';
import { discoverSkills } from './discover';
import { makeTmp, writeSkill } from './testutil';
import { type SkillRootsWatcher, WATCH_DEPTH, watchSkillRoots } from './watch';

let tmp: string;
let root: string;
let watcher: SkillRootsWatcher | undefined;
beforeEach(() => {
  tmp = makeTmp();
  root = path.join(tmp, 'skills');
});
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  fs.rmSync(tmp, { recursive: true, force: true });
});

const ws = (p: string): SkillRoot => ({ kind: 'workspace', path: p, precedence: 0 });

async function discover(cache: CopyCache, quiet: boolean) {
  const loaded: string[] = [];
  const { copies } = await discoverSkills([ws(root)], {
    cache,
    quietRoots: quiet ? new Set([root]) : undefined,
    inspect: (c) => void loaded.push(c.relDir),
  });
  return { loaded: loaded.sort(), byDir: new Map(copies.map((c) => [c.relDir, c])) };
}

/** Rewrites `file` with the same size and puts its times back: only ctime and the content move. */
function rewriteKeepingTimes(file: string, content: string) {
  const { atime, mtime } = fs.statSync(file);
  fs.writeFileSync(file, content);
  fs.utimesSync(file, atime, mtime);
}

describe('discovery of a quiet root', () => {
  it('reuses kept copies without stat-ing them on the watcher word, and stats them without it', async () => {
    writeSkill(path.join(root, 'tools', 'alpha'), 'alpha', { 'scripts/run.sh': 'echo aaa\n' });
    writeSkill(path.join(root, 'tools', 'beta'));
    const cache = new CopyCache({ racyMs: 0 });
    const first = await discover(cache, false);
    expect(first.loaded).toEqual(['tools/alpha', 'tools/beta']);
    // A change no watcher reported (as if made while none ran): taking the word skips the stat that would see it.
    rewriteKeepingTimes(path.join(root, 'tools', 'alpha', 'scripts/run.sh'), 'echo bbb\n');
    const quiet = await discover(cache, true);
    expect(quiet.loaded).toEqual([]);
    expect(quiet.byDir.get('tools/alpha')).toBe(first.byDir.get('tools/alpha'));
    expect(cache.quietReuses).toBe(2);
    expect(cache.roots.quietReuses).toBe(1);
    const statted = await discover(cache, false);
    expect(statted.loaded).toEqual(['tools/alpha']);
    expect(statted.byDir.get('tools/alpha')!.contentHash).not.toBe(first.byDir.get('tools/alpha')!.contentHash);
    expect(statted.byDir.get('tools/beta')).toBe(first.byDir.get('tools/beta'));
  });

  it('still stats the files deeper than the watcher reaches', async () => {
    const deep = `${Array.from({ length: WATCH_DEPTH }, (_, i) => `d${i}`).join('/')}/deep.txt`;
    writeSkill(path.join(root, 'alpha'), 'alpha', { [deep]: 'one\n' });
    writeSkill(path.join(root, 'beta'));
    const cache = new CopyCache({ racyMs: 0 });
    const first = await discover(cache, false);
    rewriteKeepingTimes(path.join(root, 'alpha', deep), 'two\n');
    const quiet = await discover(cache, true);
    expect(quiet.loaded).toEqual(['alpha']);
    expect(quiet.byDir.get('alpha')!.contentHash).not.toBe(first.byDir.get('alpha')!.contentHash);
    expect(quiet.byDir.get('beta')).toBe(first.byDir.get('beta'));
  });
});

describe('SkillRootsWatcher.quietSince', () => {
  it('holds while nothing happens (discovery reads do not count), ends at a write before any debounced report', async () => {
    writeSkill(path.join(root, 'alpha'), 'alpha', { 'scripts/run.sh': 'echo aaa\n' });
    const reports: string[][] = [];
    watcher = watchSkillRoots([root], { debounceMs: 5000, onChange: (p) => reports.push(p) });
    expect(watcher.mark()).toBeNull(); // not ready: vouches for nothing
    await watcher.ready;
    const cache = new CopyCache({ racyMs: 0 });
    await watcher.settle();
    const mark = watcher.mark();
    expect(mark).not.toBeNull();
    await discover(cache, false);
    await watcher.settle();
    expect(watcher.quietSince(mark)).toBe(true);
    expect((await discover(cache, true)).loaded).toEqual([]);

    rewriteKeepingTimes(path.join(root, 'alpha', 'scripts/run.sh'), 'echo bbb\n');
    await watcher.settle();
    expect(watcher.quietSince(mark)).toBe(false);
    expect(reports).toEqual([]); // the debounced report is seconds away; the raw event already counted
    expect((await discover(cache, false)).loaded).toEqual(['alpha']);

    const after = watcher.mark();
    await watcher.close();
    expect(watcher.quietSince(after)).toBe(false);
    expect(watcher.mark()).toBeNull();
  });

  it('does not carry a mark over to another watcher', async () => {
    fs.mkdirSync(root, { recursive: true });
    watcher = watchSkillRoots([root], { debounceMs: 100, onChange: () => undefined });
    await watcher.ready;
    const other = watchSkillRoots([root], { debounceMs: 100, onChange: () => undefined });
    try {
      await other.ready;
      expect(other.quietSince(watcher.mark())).toBe(false);
      expect(watcher.quietSince(watcher.mark())).toBe(true);
    } finally {
      await other.close();
    }
  });
});
