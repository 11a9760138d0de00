// The constant scripts run here with this machine's sh, tar, curl and python3, against a loopback
// HTTP server the test starts.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTRACT_SCRIPT, FETCH_SCRIPT, UNPACK_SCRIPT, VENV_SCRIPT, WIPE_SCRIPT } from './scripts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-scripts-'));
const p = (...parts: string[]) => path.join(dir, ...parts);
let server: http.Server;
let base = '';
let tgz: Buffer;

function sh(script: string, name: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', script, name, ...args], { timeout: 20_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  fs.mkdirSync(p('src/pkg-1.0/bin'), { recursive: true });
  fs.writeFileSync(p('src/pkg-1.0/bin/tool'), 'echo tool\n');
  execFileSync('tar', ['-c', '-z', '-f', p('pkg.tar.gz'), '-C', p('src'), 'pkg-1.0']);
  tgz = fs.readFileSync(p('pkg.tar.gz'));
  server = http.createServer((req, res) => {
    if (req.url === '/pkg.tar.gz') res.end(tgz);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('install plan scripts', { timeout: 60_000 }, () => {
  it('unpack: the archive replaces the skill folder and is removed', async () => {
    fs.mkdirSync(p('skills/demo'), { recursive: true });
    fs.writeFileSync(p('skills/demo/old.txt'), 'old');
    fs.mkdirSync(p('in/scripts'), { recursive: true });
    fs.writeFileSync(p('in/SKILL.md'), '---\nname: demo\n---\n');
    fs.writeFileSync(p('in/scripts/-rf'), 'not an option');
    execFileSync('tar', ['-c', '-f', p('skill.tar'), '-C', p('in'), '.']);
    const r = await sh(UNPACK_SCRIPT, 'skilldock-unpack', p('skill.tar'), p('skills/.incoming-demo'), p('skills/demo'));
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(fs.readdirSync(p('skills/demo')).sort()).toEqual(['SKILL.md', 'scripts']);
    expect(fs.existsSync(p('skills/demo/scripts/-rf'))).toBe(true);
    expect(fs.existsSync(p('skill.tar')) || fs.existsSync(p('skills/.incoming-demo'))).toBe(false);
  });

  it('fetch: the file lands only when its sha256 matches, with curl and with python3', async () => {
    const sha = createHash('sha256').update(tgz).digest('hex');
    for (const fetcher of ['curl', 'python3']) {
      const dest = p(`dl-${fetcher}`, 'pkg.tar.gz');
      const good = await sh(FETCH_SCRIPT, 'skilldock-fetch', fetcher, `${base}/pkg.tar.gz`, dest, sha);
      expect(good.code, good.stderr).toBe(0);
      expect(fs.readFileSync(dest).equals(tgz)).toBe(true);
      const wrong = p(`dl-${fetcher}`, 'wrong.tar.gz');
      const bad = await sh(FETCH_SCRIPT, 'skilldock-fetch', fetcher, `${base}/pkg.tar.gz`, wrong, '0'.repeat(64));
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain(`sha256_mismatch: expected ${'0'.repeat(64)}, got ${sha}`);
      expect(fs.readdirSync(p(`dl-${fetcher}`))).toEqual(['pkg.tar.gz']);
    }
    const missing = await sh(FETCH_SCRIPT, 'skilldock-fetch', 'curl', `${base}/nope`, p('dl-x/f'), sha);
    expect(missing.code).not.toBe(0);
    expect(fs.existsSync(p('dl-x/f'))).toBe(false);
  });

  it('extract: a tar.gz is unpacked with stripComponents and the archive removed', async () => {
    fs.copyFileSync(p('pkg.tar.gz'), p('x.tar.gz'));
    const r = await sh(EXTRACT_SCRIPT, 'skilldock-extract', p('x.tar.gz'), p('tools/demo/runtime'), '1', 'tar.gz');
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(p('tools/demo/runtime/bin/tool'), 'utf8')).toBe('echo tool\n');
    expect(fs.existsSync(p('x.tar.gz'))).toBe(false);
  });

  it('wipe: the folders are emptied (dotfiles too) and kept', async () => {
    fs.mkdirSync(p('ws/sub'), { recursive: true });
    fs.writeFileSync(p('ws/.hidden'), '');
    fs.writeFileSync(p('ws/sub/f'), '');
    const r = await sh(WIPE_SCRIPT, 'skilldock-wipe', p('ws'), p('no-such-dir'));
    expect(r.code).toBe(0);
    expect(fs.readdirSync(p('ws'))).toEqual([]);
  });

  it('venv: created once with the image pip visible, left alone the second time', async () => {
    const venv = p('python');
    expect((await sh(VENV_SCRIPT, 'skilldock-venv', venv)).code).toBe(0);
    const cfg = fs.readFileSync(path.join(venv, 'pyvenv.cfg'), 'utf8');
    expect(cfg).toContain('include-system-site-packages = true');
    fs.writeFileSync(path.join(venv, 'marker'), '');
    expect((await sh(VENV_SCRIPT, 'skilldock-venv', venv)).code).toBe(0);
    expect(fs.existsSync(path.join(venv, 'marker'))).toBe(true);
  });
});
