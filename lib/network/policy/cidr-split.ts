// CIDR arithmetic for backends where an allow entry beats every deny: an allow of a range that
// holds always-blocked addresses is sent as the pieces of it that lie outside them.
import { type Cidr, cidrText, cidrWithin, parseCidr, parseIp } from './addr';

const WIDTH = { ipv4: 32, ipv6: 128 } as const;

function toBig(c: Cidr): bigint {
  const bytes = c[0].toByteArray();
  return bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
}

function fromBig(n: bigint, kind: 'ipv4' | 'ipv6'): string {
  if (kind === 'ipv4') return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join('.');
  const groups: string[] = [];
  for (let s = 112n; s >= 0n; s -= 16n) groups.push(((n >> s) & 0xffffn).toString(16));
  return groups.join(':');
}

const overlaps = (x: Cidr, y: Cidr) => cidrWithin(x, y) || cidrWithin(y, x);

/** The parts of `range` outside every CIDR of `holes` (same family), as few CIDRs as the split gives. */
export function subtractCidrs(range: string, holes: readonly string[]): string[] {
  const top = parseCidr(range);
  if (!top) return [];
  const kind = top[0].kind() as 'ipv4' | 'ipv6';
  const parsed = holes.map(parseCidr).filter((h): h is Cidr => h !== null && h[0].kind() === kind);
  const out: string[] = [];
  const walk = (c: Cidr) => {
    if (parsed.some((h) => cidrWithin(c, h))) return;
    if (!parsed.some((h) => overlaps(h, c))) return void out.push(cidrText(c[0], c[1]));
    const bits = c[1] + 1;
    const base = toBig(c);
    const half = 1n << BigInt(WIDTH[kind] - bits);
    for (const start of [base, base + half]) walk([parseIp(fromBig(start, kind))!, bits]);
  };
  walk([parseIp(cidrText(top[0], top[1]).split('/')[0])!, top[1]]);
  return out;
}
