import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTmp, skillMd, writeSkill } from './testutil';
import { type SkillRootsWatcher, watchSkillRoots } from './watch';

let tmp: string;
let watcher: SkillRootsWatcher | undefined;
let batches: string[][];
let waiters: { match: (paths: string[]) => boolean; resolve: (paths: string[]) => void }[];

beforeEach(() => {
  tmp = makeTmp('skilldock-watch-');
  batches = [];
  waiters = [];
});
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  fs.rmSync(tmp, { recursive: true, force: true });
});

function start(roots: string[]): Promise<void> {
  watcher = watchSkillRoots(roots, {
    debounceMs: 100,
    onChange: (paths) => {
      batches.push(paths);
      for (const w of [...waiters]) {
        if (w.match(paths)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(paths);
        }
      }
    },
  });
  return watcher.ready;
}

/** Resolves with the first onChange batch (from now on) that contains a path satisfying `pred`. */
function changeWhere(pred: (p: string) => boolean): Promise<string[]> {
  return new Promise((resolve) => waiters.push({ match: (paths) => paths.some(pred), resolve }));
}

describe('watchSkillRoots', () => {
  it('reports adding a skill, changing its SKILL.md and removing it', async () => {
    const root = path.join(tmp, 'skills');
    fs.mkdirSync(root);
    await start([root]);
    const skill = path.join(root, 'weather');
    const md = path.join(skill, 'SKILL.md');

    // the folder and the file may come in one batch or two (the file waits for its write to finish)
    const added = changeWhere((p) => p === md);
    writeSkill(skill);
    await added;
    expect(batches.flat()).toContain(skill);

    const changed = changeWhere((p) => p === md);
    fs.writeFileSync(md, skillMd('weather', 'Changed description.'));
    expect(await changed).toEqual([md]);

    const removed = changeWhere((p) => p === skill);
    fs.rmSync(skill, { recursive: true });
    expect(await removed).toContain(skill);
  });

  it('sees skills inside groups and several roots in one watcher', async () => {
    const a = path.join(tmp, 'a');
    const b = path.join(tmp, 'b');
    fs.mkdirSync(path.join(a, 'group'), { recursive: true });
    fs.mkdirSync(b);
    await start([a, b]);
    const inGroup = changeWhere((p) => p === path.join(a, 'group', 'tool', 'SKILL.md'));
    writeSkill(path.join(a, 'group', 'tool'));
    await inGroup;
    const inB = changeWhere((p) => p === path.join(b, 'x', 'SKILL.md'));
    writeSkill(path.join(b, 'x'));
    await inB;
  });

  it('ignores node_modules, .git and the other tool folders', async () => {
    const root = path.join(tmp, 'skills');
    writeSkill(path.join(root, 'tool'));
    await start([root]);
    const real = changeWhere((p) => p.endsWith('marker.txt'));
    for (const d of ['node_modules', '.git', '__pycache__', '.venv']) {
      fs.mkdirSync(path.join(root, 'tool', d, 'sub'), { recursive: true });
      fs.writeFileSync(path.join(root, 'tool', d, 'sub', 'x.js'), 'x');
    }
    fs.writeFileSync(path.join(root, 'tool', 'marker.txt'), 'x');
    await real;
    const all = batches.flat();
    expect(all.some((p) => /node_modules|\.git|__pycache__|\.venv/.test(p))).toBe(false);
  });

  it('picks up a root that is created after the watcher started', async () => {
    const root = path.join(tmp, 'later', 'skills');
    await start([root]);
    const created = changeWhere((p) => p === root);
    fs.mkdirSync(root, { recursive: true });
    await created;
    const added = changeWhere((p) => p === path.join(root, 'new', 'SKILL.md'));
    writeSkill(path.join(root, 'new'));
    await added;
  });

  it('follows a root that is deleted and created again', async () => {
    const root = path.join(tmp, 'skills');
    writeSkill(path.join(root, 'one'));
    await start([root]);
    const gone = changeWhere((p) => p === root);
    fs.rmSync(root, { recursive: true });
    await gone;
    const back = changeWhere((p) => p === root);
    fs.mkdirSync(root);
    await back;
    const added = changeWhere((p) => p === path.join(root, 'two', 'SKILL.md'));
    writeSkill(path.join(root, 'two'));
    await added;
  });

  it('follows symlinked skill folders (the managed store)', async () => {
    const root = path.join(tmp, 'managed');
    const version = writeSkill(path.join(tmp, 'versions', 'weather', '1.0.0'), 'weather');
    fs.mkdirSync(root);
    fs.symlinkSync(version, path.join(root, 'weather'));
    await start([root]);
    const changed = changeWhere((p) => p === path.join(root, 'weather', 'SKILL.md'));
    fs.writeFileSync(path.join(version, 'SKILL.md'), skillMd('weather', 'New version text.'));
    await changed;
  });

  it('stops calling back after close', async () => {
    const root = path.join(tmp, 'skills');
    fs.mkdirSync(root);
    await start([root]);
    await watcher!.close();
    const before = batches.length;
    writeSkill(path.join(root, 'late'));
    // a second watcher started after that write sees a later one: by then the first would have reported
    let seen!: () => void;
    const probeSaw = new Promise<void>((resolve) => (seen = resolve));
    const probe = watchSkillRoots([root], { debounceMs: 100, onChange: () => seen() });
    await probe.ready;
    writeSkill(path.join(root, 'later'));
    await probeSaw;
    await probe.close();
    expect(batches.length).toBe(before);
  });
});
