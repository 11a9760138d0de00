import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchIfChanged } from '../remote';
import { newerVersion } from './sources';

describe('newerVersion', () => {
  it('picks the highest semver above the installed one, with or without a leading v', () => {
    expect(newerVersion('1.0.0', ['1.0.0', '1.2.0', '1.10.0', '0.9.0'])).toBe('1.10.0');
    expect(newerVersion('v1.2.0', ['v1.1.0', 'v1.3.0', 'latest'])).toBe('v1.3.0');
    expect(newerVersion('2.0.0', ['1.9.9', '2.0.0'])).toBeNull();
    expect(newerVersion('1.0.0', [])).toBeNull();
  });
  it('treats a different version as newer when the installed one is not semver', () => {
    expect(newerVersion('nightly', ['1.0.0'])).toBe('1.0.0');
  });
});

describe('fetchIfChanged', () => {
  let server: http.Server;
  let base = '';
  let tmp = '';
  const seen: (string | null)[] = [];
  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-cond-'));
    server = http.createServer((req, res) => {
      const inm = (req.headers['if-none-match'] as string | undefined) ?? null;
      const ims = (req.headers['if-modified-since'] as string | undefined) ?? null;
      seen.push(inm ?? ims);
      if (inm === '"a"' || ims === 'Mon, 07 Dec 2026 00:00:00 GMT') return void res.writeHead(304).end();
      res.writeHead(200, { etag: '"a"', 'last-modified': 'Mon, 07 Dec 2026 00:00:00 GMT', 'content-length': '5' }).end('hello');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const policy = () => ({ allowedHosts: [new URL(base).host], hostAllowlist: [], maxBytes: 1024 });

  it('downloads and reports the validators, then answers notModified to either of them without writing', async () => {
    const file = path.join(tmp, 'one');
    const first = await fetchIfChanged(`${base}/x`, file, policy(), undefined);
    expect(first).toMatchObject({ bytes: 5, etag: '"a"', lastModified: 'Mon, 07 Dec 2026 00:00:00 GMT' });
    const again = await fetchIfChanged(`${base}/x`, path.join(tmp, 'two'), policy(), { etag: '"a"' });
    expect(again).toEqual({ notModified: true, finalUrl: `${base}/x` });
    const byDate = await fetchIfChanged(`${base}/x`, path.join(tmp, 'three'), policy(), { lastModified: 'Mon, 07 Dec 2026 00:00:00 GMT' });
    expect('notModified' in byDate).toBe(true);
    expect(fs.existsSync(path.join(tmp, 'two'))).toBe(false);
    expect(seen).toEqual([null, '"a"', 'Mon, 07 Dec 2026 00:00:00 GMT']);
  });
});
