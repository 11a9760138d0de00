// The DNS forwarder of one sandbox network, bound to its gateway address, over UDP and TCP. Names
// the judge refuses get NXDOMAIN (under default deny that keeps DNS from being a tunnel out);
// allowed queries go to the upstreams unchanged, in order, over the transport they came in on, and
// the first answer with the query's id is relayed as it is. SERVFAIL when every upstream fails.
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import { type Exchange, parseUpstream, tcpExchange, type Upstream, udpExchange } from './exchange';
import { tcpServer } from './tcp';
import { buildReply, parseQuery, RCODE } from './wire';

export interface DnsJudge {
  allowName(name: string): boolean;
}

export type DnsOutcome = 'forwarded' | 'denied' | 'malformed' | 'servfail' | 'busy' | 'refused';

/** Queries one source address may have waiting for an upstream at once, unless the options say otherwise. */
export const MAX_IN_FLIGHT_PER_CLIENT = 64;

export interface DnsQueryEvent {
  client: string;
  name: string;
  qtype: number;
  outcome: DnsOutcome;
  /** The upstream that answered, when one did. */
  upstream?: string;
}

export interface DnsForwarderOptions {
  judge: DnsJudge;
  /** `ip:port` or `[ipv6]:port`, tried in order. */
  upstreams: string[];
  /** Per upstream; default 2000. */
  timeoutMs?: number;
  /** Queries waiting for an upstream at once; more are dropped. Default 256. */
  maxInFlight?: number;
  /** Queries one source address may have waiting at once; more are answered REFUSED. Default MAX_IN_FLIGHT_PER_CLIENT. */
  maxInFlightPerClient?: number;
  /** TCP clients at once (default 64) and their idle time (default 10000). */
  maxTcpConnections?: number;
  tcpIdleTimeoutMs?: number;
  onQuery?: (e: DnsQueryEvent) => void;
}

/** The nameservers of /etc/resolv.conf (or of `text`) as `ip:port`; loopback ones included. */
export function systemUpstreams(text?: string): string[] {
  let conf = text;
  if (conf === undefined) {
    try {
      conf = fs.readFileSync('/etc/resolv.conf', 'utf8');
    } catch {
      return [];
    }
  }
  const out: string[] = [];
  for (const line of conf.split('\n')) {
    const words = line.trim().split(/\s+/);
    if (words[0] !== 'nameserver' || !words[1]) continue;
    const ip = words[1];
    const family = net.isIP(ip);
    if (family === 4) out.push(`${ip}:53`);
    else if (family === 6) out.push(`[${ip}]:53`);
  }
  return out;
}

export class DnsForwarder {
  private judge: DnsJudge;
  private readonly opts: DnsForwarderOptions;
  private readonly upstreams: Upstream[];
  private readonly udp = new Set<dgram.Socket>();
  private readonly tcp = new Set<{ server: net.Server; sockets: Set<net.Socket> }>();
  /** Aborts of the upstream exchanges in flight. */
  private readonly aborts = new Set<() => void>();
  private waiting = 0;
  private readonly waitingBy = new Map<string, number>();
  private closed = false;

  constructor(opts: DnsForwarderOptions) {
    this.opts = opts;
    this.judge = opts.judge;
    this.upstreams = opts.upstreams.map(parseUpstream);
  }

  /** Binds UDP on `port` (0: any free one), then TCP on the same port; resolves with the port. */
  async listen(host: string, port: number): Promise<number> {
    // With port 0 the port UDP got may be taken for TCP: try another few.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.bind(host, port);
      } catch (e) {
        if (port !== 0 || attempt >= 8 || (e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
      }
    }
  }

  private async bind(host: string, port: number): Promise<number> {
    const socket = dgram.createSocket({ type: net.isIPv6(host) ? 'udp6' : 'udp4' });
    this.udp.add(socket);
    const bound = await new Promise<number>((resolve, reject) => {
      socket.once('error', (e) => {
        this.udp.delete(socket);
        reject(e);
      });
      socket.bind({ address: host, port, exclusive: true }, () => {
        socket.removeAllListeners('error');
        socket.on('error', () => {});
        socket.on('message', (msg, rinfo) => this.onDatagram(socket, msg, rinfo));
        resolve(socket.address().port);
      });
    });
    const t = tcpServer((msg, client) => this.answer(msg, client, tcpExchange), {
      idleTimeoutMs: this.opts.tcpIdleTimeoutMs ?? 10_000,
      maxConnections: this.opts.maxTcpConnections ?? 64,
    });
    this.tcp.add(t);
    try {
      await new Promise<void>((resolve, reject) => {
        t.server.once('error', reject);
        t.server.listen({ host, port: bound, exclusive: true }, () => {
          t.server.off('error', reject);
          resolve();
        });
      });
    } catch (e) {
      // Both transports or neither: a port serving UDP only would break truncated answers.
      this.tcp.delete(t);
      this.udp.delete(socket);
      socket.close();
      throw e;
    }
    return bound;
  }

  setJudge(judge: DnsJudge): void {
    this.judge = judge;
  }

  /** Queries waiting for an upstream now. */
  inFlight(): number {
    return this.waiting;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const abort of [...this.aborts]) abort();
    const done: Promise<void>[] = [];
    for (const s of this.udp) done.push(new Promise<void>((r) => s.close(() => r())));
    for (const t of this.tcp) {
      done.push(new Promise<void>((r) => t.server.close(() => r())));
      for (const s of t.sockets) s.destroy();
    }
    this.udp.clear();
    this.tcp.clear();
    await Promise.all(done);
  }

  private onDatagram(socket: dgram.Socket, msg: Buffer, rinfo: dgram.RemoteInfo): void {
    this.answer(msg, rinfo.address, udpExchange).then(
      (reply) => {
        if (reply && !this.closed) socket.send(reply, rinfo.port, rinfo.address);
      },
      () => {},
    );
  }

  /** The reply to one query message, or null to send nothing. */
  private async answer(msg: Buffer, client: string, exchange: Exchange): Promise<Buffer | null> {
    if (this.closed) return null;
    const query = parseQuery(msg);
    const report = (outcome: DnsOutcome, upstream?: string) =>
      this.opts.onQuery?.({ client, name: query?.name ?? '', qtype: query?.qtype ?? 0, outcome, upstream });
    if (!query) {
      report('malformed');
      return null;
    }
    let allowed = false;
    try {
      allowed = this.judge.allowName(query.name);
    } catch {
      allowed = false;
    }
    if (!allowed) {
      report('denied');
      return buildReply(msg, query, RCODE.NXDOMAIN);
    }
    // One sandbox cannot take the whole budget: past its own share it is told at once, not ignored.
    const mine = this.waitingBy.get(client) ?? 0;
    if (mine >= (this.opts.maxInFlightPerClient ?? MAX_IN_FLIGHT_PER_CLIENT)) {
      report('refused');
      return buildReply(msg, query, RCODE.REFUSED);
    }
    if (this.waiting >= (this.opts.maxInFlight ?? 256)) {
      report('busy');
      return null;
    }
    this.waiting++;
    this.waitingBy.set(client, mine + 1);
    try {
      const track = (abort: () => void) => {
        this.aborts.add(abort);
        return () => this.aborts.delete(abort);
      };
      for (const up of this.upstreams) {
        if (this.closed) return null;
        const answer = await exchange(up, msg, query.id, this.opts.timeoutMs ?? 2000, track);
        if (answer) {
          report('forwarded', up.text);
          return answer;
        }
      }
    } finally {
      this.waiting--;
      const left = (this.waitingBy.get(client) ?? 1) - 1;
      if (left > 0) this.waitingBy.set(client, left);
      else this.waitingBy.delete(client);
    }
    if (this.closed) return null;
    report('servfail');
    return buildReply(msg, query, RCODE.SERVFAIL);
  }
}
