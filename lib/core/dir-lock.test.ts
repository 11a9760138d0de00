import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockDir, processStartTime } from './dir-lock';
import { isAppError } from './errors';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-lock-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
let n = 0;
const freshDir = () => path.join(tmp, `d${n++}`);
const holderOf = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8')) as { pid: number; start: string | null };
const writeLock = (dir: string, pid: number, start: string | null) => {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify({ pid, start, host: os.hostname(), since: '2026-01-01T00:00:00.000Z' }));
};

function refusal(dir: string): unknown {
  try {
    lockDir(dir).release();
  } catch (e) {
    return e;
  }
  return null;
}

describe('lockDir', () => {
  it('refuses a second holder with a conflict naming the pid, until the first releases', () => {
    const dir = freshDir();
    const first = lockDir(dir);
    expect(holderOf(dir)).toMatchObject({ pid: process.pid, start: processStartTime(process.pid) });
    const e = refusal(dir);
    expect(isAppError(e) && e.code).toBe('conflict');
    expect((e as Error).message).toContain(`pid ${process.pid}`);
    first.release();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    lockDir(dir).release();
  });

  it('takes over a lock left by a process that is gone', () => {
    const dir = freshDir();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeLock(dir, Number(gone.stdout), '12345');
    const lock = lockDir(dir);
    expect(holderOf(dir).pid).toBe(process.pid);
    lock.release();
  });

  it('takes over a lock whose pid now belongs to another process, and respects one that is really held', () => {
    const start = processStartTime(1);
    expect(start).not.toBeNull();
    const reused = freshDir();
    writeLock(reused, 1, `${start}0`);
    const lock = lockDir(reused);
    expect(holderOf(reused).pid).toBe(process.pid);
    lock.release();

    const held = freshDir();
    writeLock(held, 1, start);
    expect((refusal(held) as Error).message).toMatch(/in use by another Skilldock process \(pid 1,/);
    expect(holderOf(held).pid).toBe(1);
  });

  it('never leaves a half-written lock file: the holder is complete or absent', () => {
    const dir = freshDir();
    const lock = lockDir(dir);
    expect(fs.readdirSync(dir)).toEqual([LOCK_FILE]);
    lock.release();
    lock.release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
