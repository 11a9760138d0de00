import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '@/lib/core/errors';
import { zipBuffer } from '@/test/helpers/zip';
import { installConnectTripwire } from './connect-tripwire.fixtures';
import { type FetchPolicy, fetchToFile } from './url';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function serve(handler: Handler): Promise<{ port: number; base: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    base: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const ZIP = await zipBuffer({ 'demo/SKILL.md': '---\nname: demo\ndescription: A demo skill.\n---\nHello.\n', 'demo/run.sh': '#!/bin/sh\necho hi\n' });
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let tmp: string;
let dest: string;
let tripwire: ReturnType<typeof installConnectTripwire>;
let main: Awaited<ReturnType<typeof serve>>;
let other: Awaited<ReturnType<typeof serve>>;
let policy: FetchPolicy;

beforeAll(async () => {
  other = await serve((_req, res) => res.end('should never be reached'));
  main = await serve((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/skill.zip') {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': ZIP.length });
      res.end(ZIP);
    } else if (u.pathname === '/SKILL.md') {
      res.writeHead(200, { 'content-type': 'text/markdown' });
      res.end('---\nname: plain\ndescription: d\n---\n');
    } else if (u.pathname === '/to-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
      res.end();
    } else if (u.pathname === '/to-other-port') {
      res.writeHead(301, { location: `${other.base}/x` });
      res.end();
    } else if (u.pathname === '/to-zip') {
      res.writeHead(307, { location: '/skill.zip' });
      res.end();
    } else if (u.pathname === '/loop') {
      res.writeHead(302, { location: `/loop?n=${Number(u.searchParams.get('n') ?? 0) + 1}` });
      res.end();
    } else if (u.pathname === '/big-declared') {
      res.writeHead(200, { 'content-length': 5000 });
      res.end(Buffer.alloc(5000));
    } else if (u.pathname === '/big-chunked') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (let i = 0; i < 10; i++) res.write(Buffer.alloc(1000, i));
      res.end();
    } else if (u.pathname === '/stall') {
      res.writeHead(200);
      res.write('partial');
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found');
    }
  });
});
afterAll(async () => {
  await main.close();
  await other.close();
});

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-url-'));
  dest = path.join(tmp, 'download.bin');
  tripwire = installConnectTripwire();
  policy = { allowedHosts: [`127.0.0.1:${main.port}`], maxBytes: 4096 };
});
afterEach(() => {
  tripwire.restore();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function failure(p: Promise<unknown>): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return { code: e.code, message: e.message, details: e.details };
    return { code: `unexpected: ${(e as Error).message}`, message: '' };
  }
  throw new Error('expected the fetch to fail');
}

const leftovers = () => fs.readdirSync(tmp);

describe('fetchToFile', () => {
  it('downloads from an admin-allowed loopback host with its sha256', async () => {
    const r = await fetchToFile(`${main.base}/skill.zip`, dest, policy);
    expect(r).toEqual({ finalUrl: `${main.base}/skill.zip`, contentType: 'application/zip', bytes: ZIP.length, sha256: sha(ZIP) });
    expect(fs.readFileSync(dest).equals(ZIP)).toBe(true);
    expect(leftovers()).toEqual(['download.bin']);
    const md = await fetchToFile(`${main.base}/SKILL.md`, dest, policy);
    expect(fs.readFileSync(dest, 'utf8')).toContain('name: plain');
    expect(md.contentType).toBe('text/markdown');
    expect(tripwire.refused).toEqual([]);
  });

  it('follows an allowed redirect on the same host', async () => {
    const r = await fetchToFile(`${main.base}/to-zip`, dest, policy);
    expect(r.finalUrl).toBe(`${main.base}/skill.zip`);
    expect(r.sha256).toBe(sha(ZIP));
  });

  it('connects to the checked address, not to a second DNS answer', async () => {
    // "skills.test" exists only in this resolver: the connection can only reach the server through the vetted address.
    const resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const r = await fetchToFile(
      `http://skills.test:${main.port}/skill.zip`,
      dest,
      { ...policy, allowedHosts: [`skills.test:${main.port}`] },
      undefined,
      resolver,
    );
    expect(r.sha256).toBe(sha(ZIP));
    expect(tripwire.attempts).toEqual([{ host: 'skills.test', port: main.port, address: '127.0.0.1' }]);
  });

  it.each([
    'http://10.0.0.1/skill.zip',
    'http://192.168.1.1/skill.zip',
    'http://172.16.0.1/skill.zip',
    'http://169.254.169.254/latest/meta-data',
    'http://[fe80::1]/x',
    'http://[::ffff:10.0.0.1]/x',
    'http://100.64.0.1/x',
    'http://0.0.0.0/x',
    'http://127.0.0.1:PORT/skill.zip',
    'http://localhost:PORT/skill.zip',
    'http://[::1]:PORT/skill.zip',
    'http://2130706433:PORT/skill.zip',
    'http://0x7f000001:PORT/skill.zip',
  ])('refuses %s before opening a socket', async (raw) => {
    const url = raw.replace('PORT', String(main.port));
    const f = await failure(fetchToFile(url, dest, { allowedHosts: [], maxBytes: 4096 }));
    expect(f.code).toBe('ssrf_blocked');
    expect(tripwire.attempts).toEqual([]);
    expect(leftovers()).toEqual([]);
  });

  it('(self-check) the tripwire would stop a connect the guard let through', async () => {
    // An admin-allowed private address passes the guard; the tripwire must stop it before a packet leaves.
    const f = await failure(fetchToFile('http://10.0.0.1:9/x', dest, { allowedHosts: ['10.0.0.1'], maxBytes: 10 }));
    expect(f.message).toMatch(/tripwire: refused connect to 10\.0\.0\.1:9/);
    expect(tripwire.refused).toEqual([{ host: '10.0.0.1', port: 9 }]);
  });

  it('does not lift the block for another port of an allowed host', async () => {
    const f = await failure(fetchToFile(`${other.base}/x`, dest, policy));
    expect(f.code).toBe('ssrf_blocked');
    expect(other.hits).toEqual([]);
  });

  it('refuses a redirect to the metadata address without connecting to it', async () => {
    const before = main.hits.length;
    const f = await failure(fetchToFile(`${main.base}/to-metadata`, dest, policy));
    expect(f.code).toBe('ssrf_blocked');
    expect(f.details).toMatchObject({ address: '169.254.169.254', range: 'linkLocal' });
    expect(main.hits.slice(before)).toEqual(['/to-metadata']);
    expect(tripwire.attempts).toEqual([{ host: '127.0.0.1', port: main.port }]);
    expect(leftovers()).toEqual([]);
  });

  it('refuses a redirect to a loopback port that is not allowed', async () => {
    const f = await failure(fetchToFile(`${main.base}/to-other-port`, dest, policy));
    expect(f.code).toBe('ssrf_blocked');
    expect(other.hits).toEqual([]);
    expect(tripwire.attempts.every((a) => a.port === main.port)).toBe(true);
  });

  it('gives up after 5 redirects', async () => {
    const before = main.hits.length;
    const f = await failure(fetchToFile(`${main.base}/loop`, dest, policy));
    expect(f.code).toBe('fetch_failed');
    expect(f.message).toMatch(/Too many redirects/);
    expect(main.hits.length - before).toBe(6);
  });

  it('refuses hosts outside a configured host allowlist, even admin-allowed ones', async () => {
    const f = await failure(fetchToFile(`${main.base}/skill.zip`, dest, { ...policy, hostAllowlist: ['skills.example.org'] }));
    expect(f.code).toBe('host_not_allowed');
    expect(tripwire.attempts).toEqual([]);
    const ok = await fetchToFile(`${main.base}/skill.zip`, dest, { ...policy, hostAllowlist: [`127.0.0.1:${main.port}`] });
    expect(ok.bytes).toBe(ZIP.length);
  });

  it('refuses a declared oversized body before reading it', async () => {
    const f = await failure(fetchToFile(`${main.base}/big-declared`, dest, policy));
    expect(f.code).toBe('archive_too_large');
    expect(f.details).toMatchObject({ declared: 5000, maxBytes: 4096 });
    expect(leftovers()).toEqual([]);
  });

  it('stops an undeclared (chunked) body at the cap and leaves no file', async () => {
    fs.writeFileSync(dest, 'previous');
    const f = await failure(fetchToFile(`${main.base}/big-chunked`, dest, policy));
    expect(f.code).toBe('archive_too_large');
    expect(leftovers()).toEqual(['download.bin']);
    expect(fs.readFileSync(dest, 'utf8')).toBe('previous');
  });

  it('reports HTTP errors, timeouts and cancellation as fetch_failed without leftovers', async () => {
    expect((await failure(fetchToFile(`${main.base}/missing`, dest, policy))).details).toMatchObject({ status: 404 });
    const timeout = await failure(fetchToFile(`${main.base}/stall`, dest, { ...policy, timeoutMs: 300 }));
    expect(timeout.code).toBe('fetch_failed');
    expect(timeout.message).toMatch(/timed out/);
    const ac = new AbortController();
    ac.abort();
    expect((await failure(fetchToFile(`${main.base}/skill.zip`, dest, policy, ac.signal))).message).toMatch(/cancelled/);
    expect(leftovers()).toEqual([]);
  });
});
