import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MARKER_FILE } from '../access';
import { folderSignature, isFresh, markerStamp, otherStamps, sameFolders } from './manifest';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-manifest-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function skill(name: string, marker = true) {
  fs.mkdirSync(path.join(root, name, 'scripts'), { recursive: true });
  fs.writeFileSync(path.join(root, name, 'SKILL.md'), 'aaaa');
  fs.writeFileSync(path.join(root, name, 'scripts/run.sh'), 'echo');
  if (marker) fs.writeFileSync(path.join(root, name, MARKER_FILE), `{"name":"${name}"}`);
}

/** Waits past the window in which a ctime counts as fresh. */
const settle = () => new Promise((r) => setTimeout(r, 120));

describe('folderSignature', () => {
  it('stays the same while nothing changes, and changes on an edit of the same size, a chmod, an added or removed file', async () => {
    skill('a');
    await settle();
    const first = folderSignature(root, 'a');
    expect(first?.fresh).toBe(false);
    expect(folderSignature(root, 'a')?.id).toBe(first?.id);
    fs.readFileSync(path.join(root, 'a/SKILL.md'));
    expect(folderSignature(root, 'a')?.id).toBe(first?.id);

    const sigs = new Set([first?.id]);
    const step = async (change: () => void) => {
      change();
      const now = folderSignature(root, 'a');
      expect(sigs.has(now?.id)).toBe(false);
      sigs.add(now?.id);
      await settle();
    };
    await step(() => fs.writeFileSync(path.join(root, 'a/SKILL.md'), 'bbbb'));
    await step(() => fs.chmodSync(path.join(root, 'a/scripts/run.sh'), 0o755));
    await step(() => fs.writeFileSync(path.join(root, 'a/scripts/new.txt'), ''));
    await step(() => fs.rmSync(path.join(root, 'a/scripts/new.txt')));
    expect(folderSignature(root, 'missing')).toBeNull();
  });

  it('counts a ctime as fresh within 50 ms of now, or 2.1 s on a filesystem with whole-second times', () => {
    const ms = 1_800_000_000_123;
    expect(isFresh(ms - 10.456, ms)).toBe(true);
    expect(isFresh(ms - 49.5, ms)).toBe(true);
    expect(isFresh(ms - 60.25, ms)).toBe(false);
    const whole = 1_800_000_000_000;
    expect(isFresh(whole, whole + 2000)).toBe(true);
    expect(isFresh(whole, whole + 2200)).toBe(false);
  });
});

describe('sameFolders', () => {
  it('holds for untouched folders, and not for an edited marker, a replaced folder, a new folder or a marker put into a foreign one', async () => {
    skill('a');
    skill('b');
    skill('mine', false);
    await settle();
    const stamps = () => ({ a: { stamp: markerStamp(root, 'a')?.id ?? null }, b: { stamp: markerStamp(root, 'b')?.id ?? null } });
    const kept = stamps();
    const others = otherStamps(root, ['mine']);
    expect(sameFolders(root, kept, others)).toEqual([]);
    // Files other than markers are not looked at here (that is folderSignature's job).
    fs.writeFileSync(path.join(root, 'a/SKILL.md'), 'zzzz');
    expect(sameFolders(root, kept, others)).toEqual([]);

    fs.writeFileSync(path.join(root, 'a', MARKER_FILE), '{"name":"a","digest":"x"}');
    expect(sameFolders(root, kept, others)).toBe(false);
    await settle();
    const k2 = stamps();
    expect(sameFolders(root, k2, others)).toEqual([]);

    fs.renameSync(path.join(root, 'b'), path.join(root, 'b-moved'));
    fs.cpSync(path.join(root, 'b-moved'), path.join(root, 'b'), { recursive: true });
    expect(sameFolders(root, k2, { ...others, 'b-moved': '' })).toBe(false);
    await settle();
    const k3 = stamps();
    const o3 = otherStamps(root, ['mine', 'b-moved']);
    expect(sameFolders(root, k3, o3)).toEqual([]);

    fs.mkdirSync(path.join(root, 'newcomer'));
    expect(sameFolders(root, k3, o3)).toBe(false);
    fs.rmdirSync(path.join(root, 'newcomer'));
    fs.writeFileSync(path.join(root, 'mine', MARKER_FILE), '{}');
    expect(sameFolders(root, k3, o3)).toBe(false);
    fs.rmSync(path.join(root, 'mine', MARKER_FILE));

    // A folder recorded without a stamp (too fresh) is named for the caller to read its marker.
    expect(sameFolders(root, { ...k3, b: { stamp: null } }, o3)).toEqual(['b']);
    fs.rmSync(path.join(root, 'b'), { recursive: true });
    expect(sameFolders(root, k3, o3)).toBe(false);
  });
});
