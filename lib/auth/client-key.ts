import ipaddr from 'ipaddr.js';

/**
 * The unit a client is throttled by: an IPv4 address, or the /64 an IPv6 address sits in (one
 * host usually holds a whole /64, so per-address limits would be free to walk around).
 */
export function clientKey(ip: string | null | undefined): string {
  if (!ip || !ipaddr.isValid(ip)) return ip ? `other:${ip.slice(0, 100)}` : 'unknown';
  const addr = ipaddr.process(ip);
  if (addr.kind() === 'ipv4') return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
