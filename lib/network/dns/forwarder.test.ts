// The forwarder between Node's real resolver (c-ares) and a tiny upstream on loopback.
import dgram from 'node:dgram';
import dns from 'node:dns';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DnsForwarder, type DnsQueryEvent, systemUpstreams } from './forwarder';
import { parseQuery } from './wire';

interface Upstream {
  port: number;
  /** Names asked, `tcp:` in front of those asked over TCP. */
  names: string[];
  close: () => Promise<void>;
}

/** An answer to `msg` with the A record 192.0.2.7 (an address only ever carried as data). */
function answerTo(msg: Buffer, flags = 0x8180, id?: number): Buffer | null {
  const q = parseQuery(msg);
  if (!q) return null;
  const head = Buffer.alloc(12);
  head.writeUInt16BE(id ?? q.id, 0);
  head.writeUInt16BE(flags, 2);
  head.writeUInt16BE(1, 4);
  const truncated = (flags & 0x0200) !== 0;
  head.writeUInt16BE(truncated ? 0 : 1, 6);
  // Name pointer to the question, type A, class IN, TTL 60, 4 bytes of address.
  const record = truncated ? Buffer.alloc(0) : Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 192, 0, 2, 7]);
  return Buffer.concat([head, msg.subarray(12, q.questionEnd), record]);
}

/**
 * A loopback upstream on UDP and TCP. Over UDP it answers, stays `silent`, sends a `stray` answer
 * with another id first, or answers `truncated` (TC set, so the client retries over TCP).
 */
async function upstream(mode: { silent?: boolean; stray?: boolean; truncated?: boolean } = {}): Promise<Upstream> {
  const s = dgram.createSocket('udp4');
  const names: string[] = [];
  s.on('message', (msg, rinfo) => {
    const q = parseQuery(msg);
    if (!q) return;
    names.push(q.name);
    if (mode.silent) return;
    if (mode.stray) s.send(answerTo(msg, 0x8180, (q.id + 1) & 0xffff)!, rinfo.port, rinfo.address);
    s.send(answerTo(msg, mode.truncated ? 0x8380 : 0x8180)!, rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
  const port = s.address().port;
  const tcp = net.createServer((c) => {
    c.on('error', () => {});
    c.once('data', (chunk: Buffer) => {
      const msg = chunk.subarray(2, 2 + chunk.readUInt16BE(0));
      names.push(`tcp:${parseQuery(msg)?.name}`);
      const answer = answerTo(msg)!;
      const len = Buffer.alloc(2);
      len.writeUInt16BE(answer.length);
      c.end(Buffer.concat([len, answer]));
    });
  });
  await new Promise<void>((r) => tcp.listen(port, '127.0.0.1', () => r()));
  return {
    port,
    names,
    close: async () => {
      await new Promise<void>((r) => s.close(() => r()));
      await new Promise((r) => tcp.close(r));
    },
  };
}

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const s = dgram.createSocket('udp4');
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
  const port = s.address().port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

const judge = { allowName: (n: string) => n === 'allowed.test' || n.endsWith('.allowed.test') };

async function start(upstreams: string[], opts: { timeoutMs?: number; maxInFlight?: number; maxInFlightPerClient?: number } = {}) {
  const events: DnsQueryEvent[] = [];
  const fwd = new DnsForwarder({ judge, upstreams, onQuery: (e) => events.push(e), ...opts });
  const port = await fwd.listen('127.0.0.1', 0);
  cleanups.push(() => fwd.close());
  const resolver = new dns.promises.Resolver({ timeout: 5000, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  return { fwd, port, resolver, events };
}

describe('DnsForwarder', () => {
  it("relays an allowed name's answer from the upstream and refuses a denied one with NXDOMAIN", async () => {
    const up = await upstream();
    cleanups.push(up.close);
    const { resolver, events } = await start([`127.0.0.1:${up.port}`]);
    expect(await resolver.resolve4('www.Allowed.Test')).toEqual(['192.0.2.7']);
    await expect(resolver.resolve4('denied.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    expect(up.names).toEqual(['www.allowed.test']);
    expect(events.map((e) => [e.name, e.outcome])).toEqual([
      ['www.allowed.test', 'forwarded'],
      ['denied.test', 'denied'],
    ]);
  });

  it('tries the next upstream when the first is down, and answers SERVFAIL when all are', async () => {
    const up = await upstream();
    cleanups.push(up.close);
    const dead = await deadPort();
    const one = await start([`127.0.0.1:${dead}`, `127.0.0.1:${up.port}`], { timeoutMs: 5000 });
    expect(await one.resolver.resolve4('allowed.test')).toEqual(['192.0.2.7']);
    expect(one.events[0]).toMatchObject({ outcome: 'forwarded', upstream: `127.0.0.1:${up.port}` });
    const none = await start([`127.0.0.1:${dead}`], { timeoutMs: 5000 });
    await expect(none.resolver.resolve4('allowed.test')).rejects.toMatchObject({ code: 'ESERVFAIL' });
  });

  it('answers SERVFAIL when the upstream stays silent', async () => {
    const up = await upstream({ silent: true });
    cleanups.push(up.close);
    const { resolver } = await start([`127.0.0.1:${up.port}`], { timeoutMs: 100 });
    await expect(resolver.resolve4('allowed.test')).rejects.toMatchObject({ code: 'ESERVFAIL' });
  });

  it('drops malformed packets without an answer, and relays only the answer with the query id', async () => {
    const up = await upstream({ stray: true });
    cleanups.push(up.close);
    const { port, events } = await start([`127.0.0.1:${up.port}`]);
    const client = dgram.createSocket('udp4');
    cleanups.push(() => new Promise((r) => client.close(() => r())));
    await new Promise<void>((r) => client.bind(0, '127.0.0.1', r));
    const first = new Promise<Buffer>((r) => client.once('message', (m) => r(m)));
    const head = (id: number, qd: number) => Buffer.from([id >> 8, id & 0xff, 1, 0, 0, qd, 0, 0, 0, 0, 0, 0]);
    const question = Buffer.from([7, ...Buffer.from('allowed'), 4, ...Buffer.from('test'), 0, 0, 1, 0, 1]);
    const garbage = [Buffer.from('hello'), Buffer.concat([head(1, 2), question, question]), Buffer.concat([head(2, 1), Buffer.from([0xc0, 12, 0, 1, 0, 1])])];
    for (const g of garbage) client.send(g, port, '127.0.0.1');
    client.send(Buffer.concat([head(0x4242, 1), question]), port, '127.0.0.1');
    // Datagrams on loopback arrive in order: the first answer is the one to the valid query.
    expect((await first).readUInt16BE(0)).toBe(0x4242);
    expect(events.map((e) => e.outcome)).toEqual(['malformed', 'malformed', 'malformed', 'forwarded']);
    expect(up.names).toEqual(['allowed.test']);
  });

  it('drops queries past the in-flight bound and takes a new judge live', async () => {
    const up = await upstream({ silent: true });
    cleanups.push(up.close);
    const { fwd, resolver, events } = await start([`127.0.0.1:${up.port}`], { maxInFlight: 1, timeoutMs: 60_000 });
    const r1 = new dns.promises.Resolver({ timeout: 60_000, tries: 1 });
    r1.setServers(resolver.getServers());
    const waiting = r1.resolve4('allowed.test').catch((e) => e.code);
    while (fwd.inFlight() === 0) await new Promise((r) => setImmediate(r));
    const r2 = new dns.promises.Resolver({ timeout: 60_000, tries: 1 });
    r2.setServers(resolver.getServers());
    const dropped = r2.resolve4('a.allowed.test').catch((e) => e.code);
    while (!events.some((e) => e.outcome === 'busy')) await new Promise((r) => setImmediate(r));
    fwd.setJudge({ allowName: () => false });
    await expect(resolver.resolve4('allowed.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    r1.cancel();
    r2.cancel();
    expect(await waiting).toBe('ECANCELLED');
    expect(await dropped).toBe('ECANCELLED');
    expect(events.map((e) => e.outcome)).toEqual(['busy', 'denied']);
  });

  it("answers REFUSED past one source address's share of queries in flight, while another address is still served", async () => {
    const up = await upstream({ silent: true });
    cleanups.push(up.close);
    const { fwd, port, events } = await start([`127.0.0.1:${up.port}`], { maxInFlightPerClient: 2, timeoutMs: 60_000 });
    const question = Buffer.from([7, ...Buffer.from('allowed'), 4, ...Buffer.from('test'), 0, 0, 1, 0, 1]);
    const query = (id: number) => Buffer.concat([Buffer.from([id >> 8, id & 0xff, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0]), question]);
    const client = async (address: string) => {
      const c = dgram.createSocket('udp4');
      cleanups.push(() => new Promise((r) => c.close(() => r())));
      await new Promise<void>((r) => c.bind(0, address, r));
      return c;
    };
    const a = await client('127.0.0.1');
    const replies: Buffer[] = [];
    a.on('message', (m) => replies.push(m));
    a.send(query(1), port, '127.0.0.1');
    a.send(query(2), port, '127.0.0.1');
    while (fwd.inFlight() < 2) await new Promise((r) => setImmediate(r));
    a.send(query(3), port, '127.0.0.1');
    while (replies.length === 0) await new Promise((r) => setTimeout(r, 5));
    // The third query of the same address is answered at once, REFUSED, with its own id.
    expect(replies[0].readUInt16BE(0)).toBe(3);
    expect(replies[0].readUInt16BE(2) & 0xf).toBe(5);
    // Another source address still has its own share: its query goes to the upstream.
    const b = await client('127.0.0.2');
    b.send(query(4), port, '127.0.0.1');
    while (fwd.inFlight() < 3) await new Promise((r) => setImmediate(r));
    for (let i = 0; i < 200 && up.names.length < 3; i++) await new Promise((r) => setTimeout(r, 5));
    expect(events.map((e) => [e.client, e.outcome])).toEqual([['127.0.0.1', 'refused']]);
    expect(up.names).toEqual(['allowed.test', 'allowed.test', 'allowed.test']);
    await fwd.close();
  });

  it('serves TCP: a truncated UDP answer is retried over TCP and forwarded over TCP', async () => {
    const up = await upstream({ truncated: true });
    cleanups.push(up.close);
    const { resolver, port, events } = await start([`127.0.0.1:${up.port}`]);
    expect(await resolver.resolve4('allowed.test')).toEqual(['192.0.2.7']);
    expect(up.names).toEqual(['allowed.test', 'tcp:allowed.test']);
    expect(events.map((e) => e.outcome)).toEqual(['forwarded', 'forwarded']);
    // A denied name over TCP gets NXDOMAIN on the same connection.
    const c = net.connect(port, '127.0.0.1');
    cleanups.push(async () => void c.destroy());
    const q = Buffer.from([0, 29, 0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 6, ...Buffer.from('denied'), 4, ...Buffer.from('test'), 0, 0, 1, 0, 1]);
    c.write(q);
    const reply = await new Promise<Buffer>((r) => c.once('data', (d: Buffer) => r(d)));
    expect(reply.readUInt16BE(0)).toBe(reply.length - 2);
    expect(reply.readUInt16BE(2)).toBe(0x1234);
    expect(reply.readUInt16BE(4) & 0xf).toBe(3);
  });

  it('binds UDP and TCP or neither', async () => {
    const busy = net.createServer();
    const port = await new Promise<number>((r) => busy.listen(0, '127.0.0.1', () => r((busy.address() as net.AddressInfo).port)));
    cleanups.push(() => new Promise((r) => busy.close(() => r())));
    const fwd = new DnsForwarder({ judge, upstreams: [] });
    await expect(fwd.listen('127.0.0.1', port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    // The UDP port was given back: a second forwarder can bind it once TCP is free.
    await new Promise((r) => busy.close(r));
    const again = new DnsForwarder({ judge, upstreams: [] });
    expect(await again.listen('127.0.0.1', port)).toBe(port);
    await again.close();
    await fwd.close();
  });

  it('reads nameservers from resolv.conf text, loopback ones included', () => {
    const conf = '# comment\nnameserver 127.0.0.53\noptions edns0\nnameserver 2001:db8::1\nnameserver fe80::1%eth0\nnameserver bogus\nsearch x\n';
    expect(systemUpstreams(conf)).toEqual(['127.0.0.53:53', '[2001:db8::1]:53', '[fe80::1%eth0]:53']);
    expect(Array.isArray(systemUpstreams())).toBe(true);
  });
});
