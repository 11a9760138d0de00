// A loopback DNS server for tests: answers A queries from a fixed table (NXDOMAIN otherwise), so
// names resolve to addresses the test itself created and no query leaves the machine.
import dgram from 'node:dgram';

export interface TestDnsServer {
  port: number;
  address: string;
  queries: string[];
  set(name: string, ipv4: string | null): void;
  close(): Promise<void>;
}

function readName(buf: Buffer, start: number): { name: string; end: number } | null {
  const labels: string[] = [];
  let p = start;
  while (p < buf.length) {
    const len = buf[p];
    if (len === 0) return { name: labels.join('.').toLowerCase(), end: p + 1 };
    if (len > 63 || p + 1 + len > buf.length) return null;
    labels.push(buf.subarray(p + 1, p + 1 + len).toString('latin1'));
    p += 1 + len;
  }
  return null;
}

export async function startTestDns(records: Record<string, string>): Promise<TestDnsServer> {
  const table = new Map(Object.entries(records).map(([k, v]) => [k.toLowerCase(), v]));
  const queries: string[] = [];
  const sock = dgram.createSocket('udp4');
  sock.on('message', (msg, rinfo) => {
    if (msg.length < 17) return;
    const q = readName(msg, 12);
    if (!q || q.end + 4 > msg.length) return;
    const qtype = msg.readUInt16BE(q.end);
    queries.push(q.name);
    const ip = table.get(q.name);
    const question = msg.subarray(12, q.end + 4);
    const header = Buffer.alloc(12);
    header.writeUInt16BE(msg.readUInt16BE(0), 0);
    const answer = ip && qtype === 1;
    header.writeUInt16BE(0x8180 | (ip ? 0 : 3), 2); // QR, RD, RA; NXDOMAIN when unknown
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answer ? 1 : 0, 6);
    const parts = [header, question];
    if (answer) {
      const rr = Buffer.alloc(16);
      rr.writeUInt16BE(0xc00c, 0);
      rr.writeUInt16BE(1, 2);
      rr.writeUInt16BE(1, 4);
      rr.writeUInt32BE(5, 6);
      rr.writeUInt16BE(4, 10);
      ip.split('.').forEach((o, i) => rr.writeUInt8(Number(o), 12 + i));
      parts.push(rr);
    }
    sock.send(Buffer.concat(parts), rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => sock.bind(0, '127.0.0.1', resolve));
  return {
    port: sock.address().port,
    address: '127.0.0.1',
    queries,
    set(name, ipv4) {
      if (ipv4) table.set(name.toLowerCase(), ipv4);
      else table.delete(name.toLowerCase());
    },
    close: () => new Promise((r) => sock.close(() => r())),
  };
}
