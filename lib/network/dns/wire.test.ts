import dgram from 'node:dgram';
import dns from 'node:dns';
import { describe, expect, it } from 'vitest';
import { buildReply, parseQuery, RCODE } from './wire';

/** The bytes Node's own resolver (c-ares) sends for an A query of `name`. */
async function capturedQuery(name: string): Promise<Buffer> {
  const server = dgram.createSocket('udp4');
  await new Promise<void>((r) => server.bind(0, '127.0.0.1', r));
  const got = new Promise<Buffer>((r) => server.once('message', (m) => r(m)));
  const resolver = new dns.promises.Resolver({ timeout: 200, tries: 1 });
  resolver.setServers([`127.0.0.1:${server.address().port}`]);
  const pending = resolver.resolve4(name).catch(() => null);
  const msg = await got;
  resolver.cancel();
  await pending;
  server.close();
  return msg;
}

/** A query built by hand: header words, then raw question bytes. */
function query(words: number[], question: number[]): Buffer {
  const head = Buffer.alloc(12);
  words.forEach((w, i) => head.writeUInt16BE(w, i * 2));
  return Buffer.concat([head, Buffer.from(question)]);
}
const qname = (name: string) => [...name.split('.').flatMap((l) => [l.length, ...Buffer.from(l)]), 0];

describe('DNS wire', () => {
  it('reads the question of a real c-ares query and answers it with a refusal', async () => {
    const raw = await capturedQuery('Allowed.Test');
    const q = parseQuery(raw);
    expect(q).toMatchObject({ name: 'allowed.test', qtype: 1, qclass: 1 });
    const reply = buildReply(raw, q!, RCODE.NXDOMAIN);
    expect(reply.readUInt16BE(0)).toBe(q!.id);
    const flags = reply.readUInt16BE(2);
    expect(flags & 0x8000).toBe(0x8000); // a response
    expect(flags & 0x0100).toBe(raw.readUInt16BE(2) & 0x0100); // RD copied
    expect(flags & 0xf).toBe(3);
    expect([reply.readUInt16BE(4), reply.readUInt16BE(6), reply.readUInt16BE(8), reply.readUInt16BE(10)]).toEqual([1, 0, 0, 0]);
    expect(reply.subarray(12)).toEqual(raw.subarray(12, q!.questionEnd));
    expect(buildReply(raw, q!, RCODE.SERVFAIL).readUInt16BE(2) & 0xf).toBe(2);
    expect(buildReply(raw, q!, RCODE.REFUSED).readUInt16BE(2) & 0xf).toBe(5);
  });

  it('reads the root name and names up to 255 bytes', () => {
    expect(parseQuery(query([1, 0x0100, 1, 0, 0, 0], [0, 0, 2, 0, 1]))).toMatchObject({ name: '', qtype: 2 });
    const long = Array.from({ length: 4 }, () => 'a'.repeat(62)).join('.'); // 4 × 63 + 1 = 253 bytes on the wire
    expect(parseQuery(query([1, 0, 1, 0, 0, 0], [...qname(long), 0, 1, 0, 1]))?.name).toBe(long);
  });

  it('refuses anything that is not one plain question', () => {
    const ok = [...qname('a.test'), 0, 1, 0, 1];
    const refused: [string, Buffer][] = [
      ['a response', query([1, 0x8000, 1, 0, 0, 0], ok)],
      ['opcode NOTIFY', query([1, 4 << 11, 1, 0, 0, 0], ok)],
      ['two questions', query([1, 0, 2, 0, 0, 0], [...ok, ...ok])],
      ['no question', query([1, 0, 0, 0, 0, 0], ok)],
      ['answers in a query', query([1, 0, 1, 1, 0, 0], ok)],
      ['a compression pointer', query([1, 0, 1, 0, 0, 0], [1, 0x61, 0xc0, 12, 0, 1, 0, 1])],
      ['a 64-byte label', query([1, 0, 1, 0, 0, 0], [...qname('a'.repeat(64)), 0, 1, 0, 1])],
      ['a dot inside a label', query([1, 0, 1, 0, 0, 0], [3, 0x61, 0x2e, 0x62, 0, 0, 1, 0, 1])],
      ['a NUL inside a label', query([1, 0, 1, 0, 0, 0], [2, 0x61, 0, 0, 0, 1, 0, 1])],
      ['a name over 255 bytes', query([1, 0, 1, 0, 0, 0], [...qname(Array.from({ length: 5 }, () => 'a'.repeat(63)).join('.')), 0, 1, 0, 1])],
      ['a label past the end', query([1, 0, 1, 0, 0, 0], [9, 0x61, 0x62])],
      ['no QTYPE', query([1, 0, 1, 0, 0, 0], [...qname('a.test'), 0, 1])],
      ['a short header', Buffer.from([1, 2, 3])],
      ['an oversized packet', query([1, 0, 1, 0, 0, 0], [...ok, ...new Array(5000).fill(0)])],
    ];
    for (const [why, buf] of refused) expect(parseQuery(buf), why).toBeNull();
  });
});
