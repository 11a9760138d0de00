import net from 'node:net';
import tls from 'node:tls';
import { describe, expect, it } from 'vitest';
import { normaliseHost, parseAuthority } from './host';
import { MAX_PEEK, sniff } from './sniff';

/** The first bytes a real Node TLS client sends for `servername`, recorded by a plain TCP server. */
async function clientHello(servername: string): Promise<Buffer> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  try {
    const got = new Promise<Buffer>((resolve) => {
      server.once('connection', (s) => {
        const chunks: Buffer[] = [];
        s.on('data', (c) => {
          chunks.push(c);
          const all = Buffer.concat(chunks);
          if (all.length >= 5 && all.length >= 5 + all.readUInt16BE(3)) {
            resolve(all);
            s.destroy();
          }
        });
      });
    });
    const client = tls.connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false });
    client.on('error', () => {});
    const hello = await got;
    client.destroy();
    return hello;
  } finally {
    server.close();
  }
}

const b = (s: string) => Buffer.from(s, 'latin1');

describe('sniff: TLS', () => {
  it('reads the SNI of a real Node ClientHello', async () => {
    const hello = await clientHello('Allowed.Test');
    expect(sniff(hello)).toEqual({ kind: 'tls', host: 'allowed.test' });
  });

  it('asks for more on every prefix of the hello, and refuses it cut inside its record', async () => {
    const hello = await clientHello('allowed.test');
    for (let n = 1; n < hello.length; n++) expect(sniff(hello.subarray(0, n)).kind).toBe('more');
    // The record length shrunk: the handshake now claims more than the record holds.
    const cut = Buffer.from(hello.subarray(0, hello.length - 10));
    cut.writeUInt16BE(cut.length - 5, 3);
    expect(sniff(cut).kind).toBe('unknown');
  });

  it('refuses a hello without SNI, an oversized record and a corrupted extension length', async () => {
    const hello = await clientHello('allowed.test');
    const noSni = Buffer.from(hello);
    const at = noSni.indexOf(b('allowed.test'));
    noSni.fill(0x21, at, at + 12); // "!!!!…" is no host name
    expect(sniff(noSni)).toMatchObject({ kind: 'unknown', reason: 'SNI is not a host name' });
    const big = Buffer.from([0x16, 0x03, 0x01, 0x40, 0x00]);
    expect(sniff(big)).toMatchObject({ kind: 'unknown', reason: 'ClientHello too large' });
    // Every extension length byte set to 0xff: the walk must stop at the buffer's end.
    for (let i = 5; i < hello.length; i++) {
      const bad = Buffer.from(hello);
      bad[i] = 0xff;
      const r = sniff(bad);
      if (r.kind === 'tls') expect(normaliseHost(r.host)).toBe(r.host);
      else expect(['unknown', 'more']).toContain(r.kind);
    }
  });
});

describe('sniff: HTTP', () => {
  it('reads the Host of an origin-form request', () => {
    const req = b('GET /x HTTP/1.1\r\nUser-Agent: t\r\nhost: Allowed.Test:8080\r\n\r\nbody');
    expect(sniff(req)).toEqual({ kind: 'http', via: 'host', method: 'GET', target: '/x', host: 'allowed.test', port: 8080, headEnd: req.length - 4 });
    expect(sniff(b('GET / HTTP/1.1\r\nHost: allowed.test\r\n\r\n'))).toMatchObject({ port: 80 });
  });

  it('reads CONNECT and absolute-form targets', () => {
    expect(sniff(b('CONNECT allowed.test:443 HTTP/1.1\r\nHost: allowed.test:443\r\n\r\n'))).toMatchObject({
      via: 'connect',
      host: 'allowed.test',
      port: 443,
    });
    expect(sniff(b('CONNECT [::1]:8443 HTTP/1.1\r\n\r\n'))).toMatchObject({ via: 'connect', host: '::1', port: 8443 });
    expect(sniff(b('GET http://allowed.test:81/a?b HTTP/1.1\r\nHost: allowed.test:81\r\n\r\n'))).toMatchObject({
      via: 'absolute',
      host: 'allowed.test',
      port: 81,
    });
    expect(sniff(b('GET HTTP://allowed.test HTTP/1.0\r\n\r\n'))).toMatchObject({ via: 'absolute', port: 80 });
  });

  it('refuses what it cannot judge exactly', () => {
    const refused = [
      'CONNECT allowed.test HTTP/1.1\r\n\r\n', // no port
      'GET / HTTP/1.1\r\n\r\n', // no Host
      'GET / HTTP/1.1\r\nHost: a.test\r\nHost: b.test\r\n\r\n',
      'GET http://a.test/ HTTP/1.1\r\nHost: b.test\r\n\r\n', // fronting another Host
      'GET https://a.test/ HTTP/1.1\r\n\r\n',
      'GET http://user@a.test/ HTTP/1.1\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: 2852039166\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: a.test:0\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: ::1\r\n\r\n',
      'GET / HTTP/2.0\r\nHost: a.test\r\n\r\n',
      'GET  / HTTP/1.1\r\nHost: a.test\r\n\r\n',
      'GET / HTTP/1.1\r\nno colon\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: a.test\r\nHost : b.test\r\n\r\n',
      'GET / HTTP/1.1\r\nHost\t: b.test\r\n\r\n',
      'GET / HTTP/1.1\r\nHost: a.test\r\n Host: b.test\r\n\r\n',
    ];
    for (const r of refused) expect(sniff(b(r)), r).toMatchObject({ kind: 'unknown', http: true });
    expect(sniff(b('\x00\x01garbage')).kind).toBe('unknown');
    expect(sniff(b('get / HTTP/1.1\r\n\r\n')).kind).toBe('unknown');
    expect(sniff(b('ABCDEFGHIJKLMNOPQRSTUVWXYZ / HTTP/1.1')).kind).toBe('unknown');
  });

  it('asks for more until the head ends, and stops at the peek limit', () => {
    const req = 'GET / HTTP/1.1\r\nHost: allowed.test\r\n\r\n';
    for (let n = 1; n < req.length; n++) expect(sniff(b(req.slice(0, n))).kind, req.slice(0, n)).toBe('more');
    const long = Buffer.concat([b('GET / HTTP/1.1\r\nX: '), Buffer.alloc(MAX_PEEK, 0x61)]);
    expect(sniff(long)).toMatchObject({ kind: 'unknown', reason: 'request head too large' });
    const many = b('GET / HTTP/1.1\r\n' + 'A: b\r\n'.repeat(200) + 'Host: a.test\r\n\r\n');
    expect(sniff(many)).toMatchObject({ kind: 'unknown', reason: 'too many header lines' });
  });
});

describe('host names', () => {
  it('accepts DNS names and IP literals, refuses the rest', () => {
    expect(normaliseHost('Pypi.Org.')).toBe('pypi.org');
    expect(normaliseHost('_dmarc.x.test')).toBe('_dmarc.x.test');
    expect(normaliseHost('10.0.0.1')).toBe('10.0.0.1');
    expect(normaliseHost('[::1]')).toBe('::1');
    for (const bad of [
      '',
      'a..b',
      '-a.test',
      'a-.test',
      'a b',
      'a\u00e9.test',
      'x'.repeat(64) + '.test',
      '2852039166',
      '0x7f.1',
      '0251.0376.0251.0376',
      '[1.2.3.4]',
    ])
      expect(normaliseHost(bad), bad).toBeNull();
    expect(parseAuthority('a.test:65536', 80)).toBeNull();
    expect(parseAuthority('[::ffff:169.254.169.254]:80', null)).toEqual({ host: '::ffff:169.254.169.254', port: 80 });
  });
});
