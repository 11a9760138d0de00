import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** SKILLDOCK_TRUSTED_PROXIES, parsed: nobody, a number of hops, or the ranges proxies connect from. */
export type TrustedProxies = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'ranges'; ranges: Range[] };

export function parseTrustedProxies(value: string | undefined): TrustedProxies {
  const v = (value ?? '').trim();
  if (!v || v === '0') return { kind: 'none' };
  if (/^\d{1,2}$/.test(v)) return { kind: 'hops', hops: Number(v) };
  const ranges = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s): Range => {
      try {
        if (s.includes('/')) {
          const [addr, bits] = ipaddr.parseCIDR(s);
          const mapped = addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress();
          return mapped ? [(addr as ipaddr.IPv6).toIPv4Address(), Math.max(0, bits - 96)] : [addr, bits];
        }
        const addr = ipaddr.process(s);
        return [addr, addr.kind() === 'ipv4' ? 32 : 128];
      } catch {
        throw new Error(`SKILLDOCK_TRUSTED_PROXIES: "${s}" is neither a hop count nor an IP address or CIDR range`);
      }
    });
  return { kind: 'ranges', ranges };
}

/** An address as one canonical string (IPv4-mapped IPv6 becomes IPv4); null when it is not an address. */
export function normaliseIp(raw: string | undefined | null): string | null {
  if (!raw) return null;
  let s = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracketed) s = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(s)) s = s.slice(0, s.lastIndexOf(':'));
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!ipaddr.isValid(s)) return null;
  return ipaddr.process(s).toString();
}

function trusted(ip: string, ranges: Range[]): boolean {
  const addr = ipaddr.process(ip);
  return ranges.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net as never, bits));
}

/**
 * The client's address: the socket's, or, behind trusted proxies, the right-most X-Forwarded-For
 * hop that is not one of them. Everything left of that hop was written by the client and is ignored.
 */
/** Socket peers are few and ask many times (keep-alive, pollers): their canonical form is kept. */
// process-wide: a pure memo of the canonical form of a socket peer address
const peers = new Map<string, string>();

function socketPeer(raw: string | undefined): string {
  if (!raw) return 'unknown';
  let ip = peers.get(raw);
  if (ip === undefined) {
    if (peers.size >= 1024) peers.clear();
    peers.set(raw, (ip = normaliseIp(raw) ?? 'unknown'));
  }
  return ip;
}

export function clientIp(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, proxies: TrustedProxies): string {
  const socket = socketPeer(socketAddress);
  if (proxies.kind === 'none' || socket === 'unknown') return socket;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const hops = header
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  // Nearest first: the socket peer, then each hop it reported, right to left.
  const chain = [socket, ...hops.reverse()];
  if (proxies.kind === 'hops') {
    const i = Math.min(proxies.hops, chain.length - 1);
    return normaliseIp(chain[i]) ?? normaliseIp(chain[i - 1]) ?? socket;
  }
  let current = socket;
  for (let i = 0; i < chain.length; i++) {
    const ip = normaliseIp(chain[i]);
    if (!ip) return current; // a malformed hop: the last address we could read is as far as trust goes
    current = ip;
    if (!trusted(ip, proxies.ranges)) return ip;
  }
  return current;
}
