import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContainedFile } from './contained-read';

let tmp: string;
let root: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'contained-read-'));
  root = path.join(tmp, 'skill');
  fs.mkdirSync(path.join(root, 'refs'), { recursive: true });
  fs.mkdirSync(path.join(tmp, 'outside'));
  fs.writeFileSync(path.join(tmp, 'outside', 'secret.txt'), 'not for the skill');
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const code = async (p: Promise<unknown>) =>
  p.then(
    () => 'read',
    (e: { code?: string }) => e.code,
  );

describe('readContainedFile', () => {
  it.each([0, 1, 65_535, 65_536, 65_537, 1_048_576])('reads a file of %i bytes whole and exactly', async (size) => {
    const data = Buffer.alloc(size);
    for (let i = 0; i < size; i++) data[i] = (i * 31 + 7) & 0xff;
    fs.writeFileSync(path.join(root, 'refs', `f${size}.bin`), data);
    const got = await readContainedFile(root, `refs/f${size}.bin`, 2 * 1024 * 1024);
    expect(got.equals(data)).toBe(true);
  });

  it('refuses a file over the limit, and one exactly at it is read', async () => {
    fs.writeFileSync(path.join(root, 'ten.txt'), '0123456789');
    expect((await readContainedFile(root, 'ten.txt', 10)).toString()).toBe('0123456789');
    expect(await code(readContainedFile(root, 'ten.txt', 9))).toBe('payload_too_large');
  });

  it('refuses a final symlink, even to a file inside the skill', async () => {
    fs.writeFileSync(path.join(root, 'real.md'), 'x');
    fs.symlinkSync('real.md', path.join(root, 'link.md'));
    expect(await code(readContainedFile(root, 'link.md', 1024))).toBe('not_allowed');
  });

  it('refuses a file reached through a folder swapped for a link to outside the skill', async () => {
    fs.symlinkSync(path.join(tmp, 'outside'), path.join(root, 'swapped'));
    expect(await code(readContainedFile(root, 'swapped/secret.txt', 1024))).toBe('not_allowed');
  });

  it('reads through a link that stays inside the skill folder', async () => {
    fs.writeFileSync(path.join(root, 'refs', 'inner.md'), 'inner');
    fs.symlinkSync('refs', path.join(root, 'alias'));
    expect((await readContainedFile(root, 'alias/inner.md', 1024)).toString()).toBe('inner');
  });

  it('refuses a FIFO without blocking on it', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    expect(await code(readContainedFile(root, 'pipe', 1024))).toBe('validation');
  });

  it.each(['../outside/secret.txt', '/etc/passwd', 'refs/../../outside/secret.txt', '', 'a//b', 'a\0b'])('refuses the path %j', async (rel) => {
    expect(await code(readContainedFile(root, rel, 1024))).toBe('validation');
  });
});
