// What the egress proxy must never dial whatever the policy says: it connects from the host's own
// namespace, so an address of the host itself (any interface, up or down, the bridge gateways
// included) or a Docker network's subnet would reach what the firewall keeps the sandbox from.
import fs from 'node:fs/promises';
import os from 'node:os';
import { type Cidr, inCidr, parseCidr, parseIp, unmap } from '../policy/addr';
import type { Decision } from '../policy/types';

export interface HostGuardOptions {
  /** The subnets of every network on the engines in use (the sandbox's own network included). */
  networkSubnets: () => Promise<string[]>;
  /** The host's own addresses; by default read from the kernel. */
  hostAddresses?: () => Promise<string[]>;
  /** How long a listing is trusted; default 5000 ms. */
  ttlMs?: number;
  now?: () => number;
}

interface Snapshot {
  host: Set<string>;
  subnets: [string, Cidr][];
  at: number;
}

/** IPv4 addresses the kernel routes as local ("/32 host LOCAL" in the local table). */
export function localV4FromFibTrie(text: string): string[] {
  const out = new Set<string>();
  let last = '';
  for (const line of text.split('\n')) {
    const leaf = /\|-- (\d{1,3}(?:\.\d{1,3}){3})\s*$/.exec(line);
    if (leaf) last = leaf[1];
    else if (last && line.includes('/32 host LOCAL')) out.add(last);
  }
  return [...out];
}

/** IPv6 addresses of every interface, up or down (/proc/net/if_inet6: 32 hex digits per address). */
export function v6FromIfInet6(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const hex = line.trim().split(/\s+/)[0] ?? '';
    if (!/^[0-9a-f]{32}$/i.test(hex)) continue;
    const a = parseIp((hex.match(/.{4}/g) ?? []).join(':'));
    if (a) out.push(a.toString());
  }
  return out;
}

async function kernelAddresses(): Promise<string[]> {
  const found = new Set<string>();
  for (const list of Object.values(os.networkInterfaces())) for (const i of list ?? []) found.add(i.address.split('%')[0]);
  const read = (f: string) => fs.readFile(f, 'utf8').catch(() => '');
  for (const a of localV4FromFibTrie(await read('/proc/net/fib_trie'))) found.add(a);
  for (const a of v6FromIfInet6(await read('/proc/net/if_inet6'))) found.add(a);
  return [...found];
}

const canonical = (ip: string): string | null => {
  const a = parseIp(ip);
  return a ? unmap(a).toString() : null;
};

export class HostGuard {
  private snap: Snapshot | null = null;
  private loading: Promise<Snapshot> | null = null;

  constructor(private readonly opts: HostGuardOptions) {}

  /** The next check lists again (after a network was created or removed). */
  invalidate(): void {
    if (this.snap) this.snap.at = Number.NEGATIVE_INFINITY;
  }

  private async load(): Promise<Snapshot> {
    const [host, subnets] = await Promise.all([(this.opts.hostAddresses ?? kernelAddresses)(), this.opts.networkSubnets()]);
    return {
      host: new Set(host.map(canonical).filter((a): a is string => a !== null)),
      subnets: subnets.flatMap((s): [string, Cidr][] => {
        const c = parseCidr(s);
        return c ? [[s, c]] : [];
      }),
      at: (this.opts.now ?? Date.now)(),
    };
  }

  private async current(): Promise<Snapshot> {
    const now = (this.opts.now ?? Date.now)();
    if (this.snap && now - this.snap.at < (this.opts.ttlMs ?? 5000)) return this.snap;
    this.loading ??= this.load().finally(() => {
      this.loading = null;
    });
    try {
      this.snap = await this.loading;
    } catch (e) {
      // A failed listing keeps the last one; without any, nothing is allowed.
      if (!this.snap) throw e;
    }
    return this.snap;
  }

  /** A refusal when any address is the host's own or in a network's subnet; null when none is. */
  async check(addresses: string[]): Promise<Decision | null> {
    let snap: Snapshot;
    try {
      snap = await this.current();
    } catch {
      return { allowed: false, kind: 'host', rule: "The host's addresses and networks could not be listed, so the proxy connects nowhere." };
    }
    for (const text of addresses) {
      const a = parseIp(text);
      if (!a) continue;
      const ip = unmap(a);
      const shown = ip.toString();
      if (snap.host.has(shown))
        return { allowed: false, kind: 'host', entry: shown, rule: `${shown} is an address of the host itself, which sandboxes never reach.` };
      const net = snap.subnets.find(([, c]) => inCidr(ip, c));
      if (net)
        return {
          allowed: false,
          kind: 'other-network',
          entry: net[0],
          rule: `${shown} is in ${net[0]}, a Docker network on this host; the egress proxy never bridges between networks.`,
        };
    }
    return null;
  }
}
