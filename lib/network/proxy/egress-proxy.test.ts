// The proxy end to end on loopback: test servers on 127.0.0.1, names mapped by the test's resolver.
// The address a denied name resolves to (169.254.169.254) is never dialled: the dial seam records
// every upstream connection and would refuse it.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Decision } from '../policy/types';
import { type EgressDecisionEvent, type EgressJudge, EgressProxy } from './egress-proxy';
import { collect, connectVia, type Got, requestVia, selfSignedCert } from './testutil';

const allow: Decision = { allowed: true, kind: 'allow-domain', entry: 'allowed.test', rule: 'allowed.test is on the allow list.' };
const denyName: Decision = { allowed: false, kind: 'default-deny', rule: 'denied.test is not on the allow list.' };
const denyMeta: Decision = { allowed: false, kind: 'always-blocked', entry: '169.254.0.0/16', rule: 'meta.test resolves to 169.254.169.254 (link-local).' };

const judge: EgressJudge = {
  name: (host) => (host === 'denied.test' ? denyName : null),
  resolved: (_host, _port, addresses) => (addresses.some((a) => a.startsWith('169.254.')) ? denyMeta : allow),
};
const denyAll: EgressJudge = { name: () => ({ allowed: false, kind: 'default-deny', rule: 'Everything is denied.' }), resolved: () => denyName };

const NAMES: Record<string, string[]> = {
  'allowed.test': ['127.0.0.1'],
  'two.test': ['127.0.0.1', '127.0.0.2'],
  'denied.test': ['127.0.0.1'],
  'meta.test': ['169.254.169.254'],
};

let dir: string;
let httpServer: http.Server;
let httpsServer: https.Server;
let httpPort: number;
let httpsPort: number;
const dials: string[] = [];
const lookups: string[] = [];
const decisions: EgressDecisionEvent[] = [];
let proxy: EgressProxy;
let proxyPort: number;

function handler(req: http.IncomingMessage, res: http.ServerResponse) {
  if (req.url === '/echo') {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    return void req.pipe(res);
  }
  req.resume();
  res.end(`hello ${req.headers.host} ${req.url}`);
}

const listen = (s: net.Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as net.AddressInfo).port)));

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'egress-'));
  const { key, cert } = await selfSignedCert(dir, 'allowed.test');
  httpServer = http.createServer(handler);
  httpsServer = https.createServer({ key, cert }, handler);
  httpPort = await listen(httpServer);
  httpsPort = await listen(httpsServer);
});

afterAll(async () => {
  httpServer?.closeAllConnections();
  httpsServer?.closeAllConnections();
  await Promise.all([httpServer, httpsServer].map((s) => new Promise((r) => s?.close(r))));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function startProxy() {
  dials.length = 0;
  lookups.length = 0;
  decisions.length = 0;
  proxy = new EgressProxy({
    judge,
    resolve: async (host) => {
      lookups.push(host);
      return NAMES[host] ?? [];
    },
    // TLS is judged for port 443; the test's HTTPS server listens elsewhere on loopback.
    dial: (ip, port) => {
      dials.push(`${ip}:${port}`);
      if (ip !== '127.0.0.1') throw new Error(`the test never dials ${ip}`);
      return net.connect({ host: ip, port: port === 443 ? httpsPort : port, allowHalfOpen: true });
    },
    onDecision: (e) => decisions.push(e),
  });
  proxyPort = await proxy.listen('127.0.0.1', 0);
}

beforeAll(startProxy);
afterEach(async () => {
  await proxy.close();
  await startProxy();
});
afterAll(() => proxy.close());

const viaHost = (host: string, urlPath = '/', opts: { method?: string; body?: Buffer } = {}) => requestVia(proxyPort, host, urlPath, opts);
const connect = (target: string) => connectVia(proxyPort, target);

describe('EgressProxy', () => {
  it('forwards an allowed name by Host to the first resolved address', async () => {
    const got = await viaHost(`allowed.test:${httpPort}`, '/a');
    expect(got.body.toString()).toBe(`hello allowed.test:${httpPort} /a`);
    expect(dials).toEqual([`127.0.0.1:${httpPort}`]);
    expect(decisions).toMatchObject([{ host: 'allowed.test', port: httpPort, via: 'host', decision: allow, addresses: ['127.0.0.1'] }]);
    expect(proxy.stats()).toMatchObject({ accepted: 1, denied: 0 });
  });

  it('resolves once and dials the first address whatever the client aimed at', async () => {
    // The request reaches the proxy on 127.0.0.1 and names two.test; only the resolver's answer counts.
    expect((await viaHost(`two.test:${httpPort}`)).status).toBe(200);
    expect(lookups).toEqual(['two.test']);
    expect(dials).toEqual([`127.0.0.1:${httpPort}`]);
    expect((await viaHost(`127.0.0.1:${httpPort}`)).status).toBe(200);
    expect(lookups).toEqual(['two.test']);
  });

  it('forwards TLS by SNI without terminating it', async () => {
    const got = await new Promise<Got>((resolve, reject) => {
      const req = https.request(
        {
          host: '127.0.0.1',
          port: proxyPort,
          servername: 'allowed.test',
          rejectUnauthorized: false,
          headers: { host: 'allowed.test' },
          path: '/tls',
          agent: false,
        },
        (res) => {
          const cert = (res.socket as tls.TLSSocket).getPeerCertificate();
          expect(cert.subject.CN).toBe('allowed.test');
          collect(res).then(resolve, reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(got.body.toString()).toBe('hello allowed.test /tls');
    expect(decisions).toMatchObject([{ host: 'allowed.test', port: 443, via: 'sni' }]);
  });

  it('answers CONNECT with 200 and tunnels without forwarding the CONNECT itself', async () => {
    const { status, socket } = await connect(`allowed.test:${httpPort}`);
    expect(status).toBe(200);
    socket.write('GET /inner HTTP/1.1\r\nHost: allowed.test\r\nConnection: close\r\n\r\n');
    const chunks: Buffer[] = [];
    for await (const c of socket) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString();
    expect(text.startsWith('HTTP/1.1 200')).toBe(true);
    expect(text.endsWith('hello allowed.test /inner')).toBe(true);
    expect(decisions).toMatchObject([{ via: 'connect', port: httpPort }]);
  });

  it('forwards an absolute-form request', async () => {
    const got = await viaHost(`allowed.test:${httpPort}`, `http://allowed.test:${httpPort}/abs`);
    expect(got.status).toBe(200);
    expect(decisions).toMatchObject([{ via: 'absolute', host: 'allowed.test', port: httpPort }]);
  });

  it('answers 403 with X-Proxy-Error for a denied name, by Host and by CONNECT, and dials nothing', async () => {
    const got = await viaHost(`denied.test:${httpPort}`);
    expect(got.status).toBe(403);
    expect(got.headers['x-proxy-error']).toBe('blocked-by-policy');
    expect(got.body.toString()).toBe(`${denyName.rule}\n`);
    const c = await connect('denied.test:443');
    expect(c.status).toBe(403);
    expect(c.headers['x-proxy-error']).toBe('blocked-by-policy');
    expect(dials).toEqual([]);
    expect(proxy.stats()).toMatchObject({ accepted: 0, denied: 2 });
  });

  it('refuses a name that resolves to the metadata address without connecting to it', async () => {
    const c = await connect('meta.test:80');
    expect(c.status).toBe(403);
    expect(c.body?.toString()).toBe(`${denyMeta.rule}\n`);
    const tlsError = await new Promise<string>((resolve) => {
      const s = tls.connect({ host: '127.0.0.1', port: proxyPort, servername: 'meta.test', rejectUnauthorized: false });
      s.on('secureConnect', () => resolve('connected'));
      s.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    });
    expect(tlsError).toBe('ERR_SSL_TLSV1_ALERT_ACCESS_DENIED');
    expect(dials).toEqual([]);
    expect(decisions.map((d) => [d.via, d.decision.kind, d.addresses])).toEqual([
      ['connect', 'always-blocked', ['169.254.169.254']],
      ['sni', 'always-blocked', ['169.254.169.254']],
    ]);
  });

  it('judges the next connection with a judge swapped in live', async () => {
    expect((await viaHost(`allowed.test:${httpPort}`)).status).toBe(200);
    proxy.setJudge(denyAll);
    const got = await viaHost(`allowed.test:${httpPort}`);
    expect(got.status).toBe(403);
    expect(got.body.toString()).toBe('Everything is denied.\n');
  });

  it('ends open tunnels on close()', async () => {
    const { status, socket } = await connect(`allowed.test:${httpPort}`);
    expect(status).toBe(200);
    expect(proxy.stats().open).toBe(1);
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.on('error', () => {});
    await proxy.close();
    await closed;
    expect(proxy.stats().open).toBe(0);
  });

  it('refuses garbage and a request it cannot parse', async () => {
    const got = await viaHost('not a host');
    expect(got.status).toBe(400);
    expect(got.headers['x-proxy-error']).toBe('bad-request');
    const closed = await new Promise<boolean>((resolve) => {
      const s = net.connect(proxyPort, '127.0.0.1', () => s.write(Buffer.from([0, 1, 2, 3])));
      s.on('data', () => resolve(false));
      s.on('error', () => resolve(true));
      s.on('close', () => resolve(true));
    });
    expect(closed).toBe(true);
    expect(dials).toEqual([]);
  });

  it('answers 502 when the upstream refuses, and survives a judge that throws', async () => {
    const dead = net.createServer();
    const deadPort = await listen(dead);
    await new Promise((r) => dead.close(r));
    const got = await viaHost(`allowed.test:${deadPort}`);
    expect(got.status).toBe(502);
    expect(got.headers['x-proxy-error']).toBe('upstream-failed');
    proxy.setJudge({
      name: () => {
        throw new Error('judge bug');
      },
      resolved: () => allow,
    });
    await expect(viaHost(`allowed.test:${httpPort}`)).rejects.toMatchObject({ code: 'ECONNRESET' });
    proxy.setJudge(judge);
    expect((await viaHost(`allowed.test:${httpPort}`)).status).toBe(200);
  });

  it('closes a connection that sends nothing within the peek time', async () => {
    const quiet = new EgressProxy({ judge, resolve: async () => [], peekTimeoutMs: 50 });
    const port = await quiet.listen('127.0.0.1', 0);
    try {
      const s = net.connect(port, '127.0.0.1');
      await new Promise<void>((r) => s.once('close', () => r()));
    } finally {
      await quiet.close();
    }
  });

  it('carries a 10 MB body both ways intact', async () => {
    const body = randomBytes(10 * 1024 * 1024);
    const got = await viaHost(`allowed.test:${httpPort}`, '/echo', { method: 'POST', body });
    expect(got.status).toBe(200);
    expect(createHash('sha256').update(got.body).digest('hex')).toBe(createHash('sha256').update(body).digest('hex'));
  });
});
