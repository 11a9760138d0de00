// The owned nft table as one `nft -f` script: every managed network's egress (forward hook), its
// path to the host (input hook) and the redirect of web ports to the egress proxy (prerouting).
import { AppError } from '@/lib/core/errors';
import { DENY_ALL_V4, DENY_ALL_V6 } from '@/lib/network/policy/entry';
import { ALWAYS_BLOCKED_V4, ALWAYS_BLOCKED_V6, PRIVATE_V4, PRIVATE_V6 } from '@/lib/network/policy/ranges';
import type { CompiledPolicy } from '@/lib/network/policy/types';
import { address, bridgeName, cidr, cidrList, networkKey, port, tableName } from './nft-values';

export interface ManagedNetwork {
  /** 1 to 10 of [a-z0-9], unique per network; names its sets and chains. */
  key: string;
  /** The bridge interface (iifname), at most 15 of [a-z0-9]. */
  bridge: string;
  gateway4: string;
  subnet4: string;
  gateway6?: string;
  subnet6?: string;
  policy: CompiledPolicy;
  /** The egress proxy's port on the gateway. */
  proxyPort: number;
  /** The DNS forwarder's port on the gateway (UDP and TCP). */
  dnsPort: number;
}

/** A network once every value is checked and normalised. */
export interface Checked {
  key: string;
  bridge: string;
  gateway4: string;
  gateway6?: string;
  allow4: string[];
  allow6: string[];
  deny4: string[];
  deny6: string[];
  byName: boolean;
  denyByDefault: boolean;
  proxyPort: number;
  dnsPort: number;
}

function check(net: ManagedNetwork, i: number): Checked {
  const at = `networks[${i}]`;
  if (typeof net !== 'object' || net === null) throw new AppError('validation', `${at}: not a network.`);
  const p = net.policy;
  if (typeof p !== 'object' || p === null) throw new AppError('validation', `${at}.policy: not a compiled policy.`);
  cidr(net.subnet4, 4, `${at}.subnet4`);
  if (net.subnet6 !== undefined) cidr(net.subnet6, 6, `${at}.subnet6`);
  const proxyPort = port(net.proxyPort, `${at}.proxyPort`);
  const dnsPort = port(net.dnsPort, `${at}.dnsPort`);
  if (proxyPort === dnsPort) throw new AppError('validation', `${at}: the proxy and the DNS forwarder need different ports.`);
  const names = [...(Array.isArray(p.domains) ? p.domains : []), ...(Array.isArray(p.wildcards) ? p.wildcards : [])];
  const deny4 = cidrList(p.deny4, 4, `${at}.policy.deny4`);
  const deny6 = cidrList(p.deny6, 6, `${at}.policy.deny6`);
  return {
    key: networkKey(net.key, `${at}.key`),
    bridge: bridgeName(net.bridge, `${at}.bridge`),
    gateway4: address(net.gateway4, 4, `${at}.gateway4`),
    ...(net.gateway6 !== undefined ? { gateway6: address(net.gateway6, 6, `${at}.gateway6`) } : {}),
    allow4: cidrList(p.allow4, 4, `${at}.policy.allow4`),
    allow6: cidrList(p.allow6, 6, `${at}.policy.allow6`),
    deny4,
    deny6,
    byName: names.length > 0,
    // A deny of all of one family is a deny of all: the other family must not stay open beside it.
    denyByDefault: p.denyEgressByDefault === true || deny4.includes(DENY_ALL_V4) || deny6.includes(DENY_ALL_V6),
    proxyPort,
    dnsPort,
  };
}

export function checkAll(nets: ManagedNetwork[]): Checked[] {
  if (!Array.isArray(nets)) throw new AppError('validation', 'networks: not a list.');
  const checked = nets.map(check);
  for (const field of ['key', 'bridge'] as const) {
    const seen = new Set<string>();
    for (const n of checked) {
      if (seen.has(n[field])) throw new AppError('validation', `networks: the ${field} "${n[field]}" is used twice.`);
      seen.add(n[field]);
    }
  }
  return checked;
}

const ranges = (list: readonly { cidr: string }[], family: 4 | 6) => list.map((r) => cidr(r.cidr, family, 'ranges'));

function set(name: string, family: 4 | 6, elements: string[]): string[] {
  return [
    `\tset ${name} {`,
    `\t\ttype ${family === 4 ? 'ipv4_addr' : 'ipv6_addr'}`,
    '\t\tflags interval',
    '\t\tauto-merge',
    ...(elements.length ? [`\t\telements = { ${elements.join(', ')} }`] : []),
    '\t}',
  ];
}

function chain(name: string, rules: string[], hook?: string): string[] {
  return [`\tchain ${name} {`, ...(hook ? [`\t\t${hook}`] : []), ...rules.map((r) => `\t\t${r}`), '\t}'];
}

const REJECT = 'goto sbx_reject';

/** Egress from the network's containers, in the order the rules are judged. */
function egress(n: Checked): string[] {
  return [
    'ct state established,related return',
    `ip daddr @hard4 ${REJECT}`,
    `ip6 daddr @hard6 ${REJECT}`,
    `ip daddr @a4_${n.key} return`,
    `ip6 daddr @a6_${n.key} return`,
    `ip daddr @priv4 ${REJECT}`,
    `ip6 daddr @priv6 ${REJECT}`,
    `ip daddr @d4_${n.key} ${REJECT}`,
    `ip6 daddr @d6_${n.key} ${REJECT}`,
    `udp dport 53 ${REJECT}`,
    `tcp dport 53 ${REJECT}`,
    // The proxy judges TCP by SNI or Host; QUIC carries no name it can read, so it is refused.
    ...(n.byName ? [`udp dport 443 ${REJECT}`] : []),
    n.denyByDefault ? REJECT : 'return',
  ];
}

/**
 * Container → host: only the DNS forwarder, and the egress proxy when domain rules send web traffic
 * to it. Without domain rules the proxy port stays closed: nothing needs it, and an explicit CONNECT
 * would otherwise dial from the host's namespace.
 */
function toHost(n: Checked): string[] {
  const tcpPorts = n.byName ? `{ ${n.dnsPort}, ${n.proxyPort} }` : String(n.dnsPort);
  const open = (ip: 'ip' | 'ip6', gw: string) => [`${ip} daddr ${gw} udp dport ${n.dnsPort} return`, `${ip} daddr ${gw} tcp dport ${tcpPorts} return`];
  return [
    'ct state established,related return',
    // Without neighbour discovery the gateway's IPv6 address cannot be resolved at all.
    'icmpv6 type { nd-router-solicit, nd-neighbor-solicit, nd-neighbor-advert } return',
    ...open('ip', n.gateway4),
    ...(n.gateway6 ? open('ip6', n.gateway6) : []),
    REJECT,
  ];
}

/**
 * Web ports to the egress proxy, except traffic to the gateway. CIDR-allowed destinations go through
 * it too: with domain rules on, a web connection is judged by the name it carries (an IP-literal
 * Host by its address), so a name's rules hold whatever address the sandbox dialled.
 */
function toProxy(n: Checked): string[] {
  return [
    `ip daddr ${n.gateway4} return`,
    ...(n.gateway6 ? [`ip6 daddr ${n.gateway6} return`] : []),
    `${n.gateway6 ? '' : 'meta nfproto ipv4 '}meta l4proto tcp th dport { 80, 443 } redirect to :${n.proxyPort}`,
  ];
}

/**
 * Resolvers (Docker's embedded one included) ask port 53 of the gateway; a forwarder listening on
 * another port is reached through a redirect.
 */
function dnsRedirect(n: Checked): string[] {
  if (n.dnsPort === 53) return [];
  const to = (ip: 'ip' | 'ip6', gw: string) => `iifname "${n.bridge}" ${ip} daddr ${gw} meta l4proto { tcp, udp } th dport 53 redirect to :${n.dnsPort}`;
  return [to('ip', n.gateway4), ...(n.gateway6 ? [to('ip6', n.gateway6)] : [])];
}

/**
 * One `nft -f` script that replaces the whole table in a single transaction: the empty `table`
 * makes the `delete` valid when the table is absent, so a reader never sees a half-built table.
 */
export function renderTable(table: string, nets: ManagedNetwork[], owner?: string): string {
  const t = tableName(table, 'table');
  const checked = checkAll(nets);
  const body = [
    // The owner installation, readable from `nft -j` (table comments are not in its JSON).
    ...(owner === undefined ? [] : chain(ownerChain(owner), [])),
    ...set('hard4', 4, ranges(ALWAYS_BLOCKED_V4, 4)),
    ...set('hard6', 6, ranges(ALWAYS_BLOCKED_V6, 6)),
    ...set('priv4', 4, ranges(PRIVATE_V4, 4)),
    ...set('priv6', 6, ranges(PRIVATE_V6, 6)),
    ...checked.flatMap((n) => [
      ...set(`a4_${n.key}`, 4, n.allow4),
      ...set(`a6_${n.key}`, 6, n.allow6),
      ...set(`d4_${n.key}`, 4, n.deny4),
      ...set(`d6_${n.key}`, 6, n.deny6),
    ]),
    // TCP gets a reset and everything else an ICMP error, so a client fails at once instead of timing out.
    ...chain('sbx_reject', ['meta l4proto tcp reject with tcp reset', 'reject with icmpx type admin-prohibited']),
    ...checked.flatMap((n) => [...chain(`n_${n.key}`, egress(n)), ...chain(`i_${n.key}`, toHost(n))]),
    ...checked.filter((n) => n.byName).flatMap((n) => chain(`p_${n.key}`, toProxy(n))),
    ...chain(
      'sbx_forward',
      checked.map((n) => `iifname "${n.bridge}" jump n_${n.key}`),
      'type filter hook forward priority filter - 10; policy accept;',
    ),
    ...chain(
      'sbx_input',
      checked.map((n) => `iifname "${n.bridge}" jump i_${n.key}`),
      'type filter hook input priority filter - 10; policy accept;',
    ),
    ...chain(
      'sbx_pre',
      checked.flatMap((n) => [...dnsRedirect(n), ...(n.byName ? [`iifname "${n.bridge}" jump p_${n.key}`] : [])]),
      'type nat hook prerouting priority dstnat - 10; policy accept;',
    ),
  ];
  // One transaction: the kernel goes from the old table to the new one with no moment in between.
  return [`table inet ${t} {}`, `delete table inet ${t}`, `table inet ${t} {`, ...body, '}', ''].join('\n');
}

export const OWNER_CHAIN_PREFIX = 'sbx_owner_';

/** The empty chain naming the installation that owns the table. */
export function ownerChain(owner: string): string {
  if (!/^[a-z0-9]{1,32}$/.test(owner)) throw new AppError('validation', `The table owner "${owner}" is not 1–32 lowercase letters or digits.`);
  return `${OWNER_CHAIN_PREFIX}${owner}`;
}
