// The same rules as the owned nft table, for hosts without nft: ipset sets and iptables chains whose
// names all start with a prefix derived from the table name, so what is ours is known exactly. Each
// hook (DOCKER-USER, INPUT, nat PREROUTING) gets one jump into a dispatch chain of ours; the
// dispatch chains pick the network by bridge, so a change never touches a chain that is not ours.
import { AppError } from '@/lib/core/errors';
import { ALWAYS_BLOCKED_V4, ALWAYS_BLOCKED_V6, PRIVATE_V4, PRIVATE_V6 } from '@/lib/network/policy/ranges';
import { type Checked, checkAll, type ManagedNetwork } from './nft-rules';
import { cidr, type Family, tableName } from './nft-values';

// The kernel's limits, the terminating NUL excluded.
const MAX_CHAIN = 28;
const MAX_SET = 31;
const TMP = '-t';

export interface IptablesNames {
  /** Every chain of ours starts with `${chain}-`. */
  chain: string;
  /** Every set of ours starts with `${set}-`. */
  set: string;
}

/** "skilldock" → SKD / skd, "skilldock_t1" → SKD_T1 / skd_t1: distinct tables never share a prefix. */
export function iptablesNames(table: string): IptablesNames {
  const rest = tableName(table, 'table').slice('skilldock'.length);
  return { chain: `SKD${rest.toUpperCase()}`, set: `skd${rest}` };
}

function limited(name: string, max: number, what: string): string {
  if (name.length > max) throw new AppError('validation', `The ${what} name "${name}" is longer than ${max} characters; use a shorter table name.`);
  return name;
}

export interface Hook {
  table: 'filter' | 'nat';
  /** The chain the jump goes in, and the one used when it does not exist (Docker not set up for iptables). */
  chain: string;
  fallback?: string;
  target: string;
}

/** The one jump per hook into our dispatch chains. */
export function hooks(table: string): Hook[] {
  const P = iptablesNames(table).chain;
  return [
    { table: 'filter', chain: 'DOCKER-USER', fallback: 'FORWARD', target: `${P}-FWD` },
    { table: 'filter', chain: 'INPUT', target: `${P}-IN` },
    { table: 'nat', chain: 'PREROUTING', target: `${P}-PRE` },
  ];
}

export interface IptablesScripts {
  /** For `ipset restore`: each set filled under a temporary name, then swapped into the live one. */
  ipset: string;
  /** For `iptables-restore --noflush` / `ip6tables-restore --noflush`: declaring a chain creates or empties it. */
  v4: string;
  v6: string;
  /** The names the scripts use: anything else of ours is stale. */
  sets: string[];
  chains: Record<'v4' | 'v6', Record<'filter' | 'nat', string[]>>;
}

// hash:net takes prefixes of 1 and more bits: "everything" is its two halves.
function hashNet(list: string[], family: Family): string[] {
  const halves = family === 4 ? ['0.0.0.0/1', '128.0.0.0/1'] : ['::/1', '8000::/1'];
  return [...new Set(list.flatMap((c) => (c.endsWith('/0') ? halves : [c])))];
}

const ranges = (list: readonly { cidr: string }[], family: Family) => list.map((r) => cidr(r.cidr, family, 'ranges'));

interface Rules {
  filter: Map<string, string[]>;
  nat: Map<string, string[]>;
}

/** One family's chains and their rules, in the order the nft chains judge. */
function family(f: Family, nets: Checked[], P: string, p: string): Rules {
  const chain = (suffix: string) => limited(`${P}-${suffix}`, MAX_CHAIN, 'chain');
  const set = (suffix: string) => `${p}-${suffix}`;
  const REJ = `-g ${chain('REJ')}`;
  const est = '-m conntrack --ctstate RELATED,ESTABLISHED -j RETURN';
  const dst = (s: string) => `-m set --match-set ${set(s)} dst`;
  const gw = (n: Checked) => (f === 4 ? n.gateway4 : n.gateway6);
  const host = (a: string) => `${a}/${f === 4 ? 32 : 128}`;
  const filter = new Map<string, string[]>();
  const nat = new Map<string, string[]>();
  // TCP gets a reset and everything else an ICMP error, so a client fails at once instead of timing out.
  filter.set(chain('REJ'), [
    '-p tcp -j REJECT --reject-with tcp-reset',
    `-j REJECT --reject-with ${f === 4 ? 'icmp-admin-prohibited' : 'icmp6-adm-prohibited'}`,
  ]);
  filter.set(chain('FWD'), []);
  filter.set(chain('IN'), []);
  nat.set(chain('PRE'), []);
  for (const n of nets) {
    filter.get(chain('FWD'))?.push(`-i ${n.bridge} -j ${chain(`N-${n.key}`)}`);
    filter.set(chain(`N-${n.key}`), [
      est,
      `${dst(`hard${f}`)} ${REJ}`,
      `${dst(`a${f}-${n.key}`)} -j RETURN`,
      `${dst(`priv${f}`)} ${REJ}`,
      `${dst(`d${f}-${n.key}`)} ${REJ}`,
      `-p udp --dport 53 ${REJ}`,
      `-p tcp --dport 53 ${REJ}`,
      // The proxy judges TCP by SNI or Host; QUIC carries no name it can read, so it is refused.
      ...(n.byName ? [`-p udp --dport 443 ${REJ}`] : []),
      n.denyByDefault ? REJ : '-j RETURN',
    ]);
    filter.get(chain('IN'))?.push(`-i ${n.bridge} -j ${chain(`I-${n.key}`)}`);
    const g = gw(n);
    filter.set(chain(`I-${n.key}`), [
      est,
      // Without neighbour discovery the gateway's IPv6 address cannot be resolved at all.
      ...(f === 6 ? ['router-solicitation', 'neighbour-solicitation', 'neighbour-advertisement'].map((t) => `-p ipv6-icmp --icmpv6-type ${t} -j RETURN`) : []),
      // The proxy port only when domain rules send web traffic to it (see the nft twin).
      ...(g
        ? [
            `-d ${host(g)} -p udp --dport ${n.dnsPort} -j RETURN`,
            n.byName
              ? `-d ${host(g)} -p tcp -m multiport --dports ${n.dnsPort},${n.proxyPort} -j RETURN`
              : `-d ${host(g)} -p tcp --dport ${n.dnsPort} -j RETURN`,
          ]
        : []),
      REJ,
    ]);
    // Resolvers ask port 53 of the gateway; a forwarder listening on another port is reached through a redirect.
    if (g && n.dnsPort !== 53) {
      for (const proto of ['udp', 'tcp'])
        nat.get(chain('PRE'))?.push(`-i ${n.bridge} -d ${host(g)} -p ${proto} --dport 53 -j REDIRECT --to-ports ${n.dnsPort}`);
    }
    // Web ports to the egress proxy, except traffic to the gateway; without an IPv6 gateway, IPv4 alone.
    if (g && n.byName) {
      nat.get(chain('PRE'))?.push(`-i ${n.bridge} -j ${chain(`P-${n.key}`)}`);
      nat.set(chain(`P-${n.key}`), [`-d ${host(g)} -j RETURN`, `-p tcp -m multiport --dports 80,443 -j REDIRECT --to-ports ${n.proxyPort}`]);
    }
  }
  return { filter, nat };
}

function restoreScript(rules: Rules): string {
  const section = (name: string, chains: Map<string, string[]>) => [
    `*${name}`,
    ...[...chains.keys()].map((c) => `:${c} - [0:0]`),
    ...[...chains].flatMap(([c, list]) => list.map((r) => `-A ${c} ${r}`)),
    'COMMIT',
  ];
  return [...section('filter', rules.filter), ...section('nat', rules.nat), ''].join('\n');
}

/** The sets and both families' chains for every managed network, values checked as for nft. */
export function renderIptables(table: string, nets: ManagedNetwork[]): IptablesScripts {
  const { chain: P, set: p } = iptablesNames(table);
  const checked = checkAll(nets);
  const sets: [string, Family, string[]][] = [
    ['hard4', 4, ranges(ALWAYS_BLOCKED_V4, 4)],
    ['hard6', 6, ranges(ALWAYS_BLOCKED_V6, 6)],
    ['priv4', 4, ranges(PRIVATE_V4, 4)],
    ['priv6', 6, ranges(PRIVATE_V6, 6)],
    ...checked.flatMap((n): [string, Family, string[]][] => [
      [`a4-${n.key}`, 4, n.allow4],
      [`a6-${n.key}`, 6, n.allow6],
      [`d4-${n.key}`, 4, n.deny4],
      [`d6-${n.key}`, 6, n.deny6],
    ]),
  ];
  const names = sets.map(([s]) => `${p}-${s}`);
  for (const name of names) limited(`${name}${TMP}`, MAX_SET, 'ipset');
  const ipset = sets.flatMap(([s, f, elements]) => {
    const live = `${p}-${s}`;
    const tmp = `${live}${TMP}`;
    const type = `hash:net family ${f === 4 ? 'inet' : 'inet6'}`;
    return [
      `create ${live} ${type} -exist`,
      `create ${tmp} ${type} -exist`,
      `flush ${tmp}`,
      ...hashNet(elements, f).map((e) => `add ${tmp} ${e} -exist`),
      `swap ${tmp} ${live}`,
      `destroy ${tmp}`,
    ];
  });
  const v4 = family(4, checked, P, p);
  const v6 = family(6, checked, P, p);
  const keys = (r: Rules) => ({ filter: [...r.filter.keys()], nat: [...r.nat.keys()] });
  return { ipset: [...ipset, ''].join('\n'), v4: restoreScript(v4), v6: restoreScript(v6), sets: names, chains: { v4: keys(v4), v6: keys(v6) } };
}
