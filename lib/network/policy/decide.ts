// The one evaluator of a compiled policy: the tester, the egress proxy and the DNS forwarder all ask
// it, in the same order the firewall applies: always-blocked, allow, private, deny, DNS, default.
import { type Addr, blockedRange, type Cidr, inCidr, parseCidr, parseIp, privateRange, unmap } from './addr';
import { isDenyAll } from './compile';
import type { Destination } from './destination';
import { DENY_ALL_V4, DENY_ALL_V6, hostCharsOk, isNumericTrick } from './entry';
import type { CompiledPolicy, Decision } from './types';

// process-wide: a constant table, never written
const WEB_PORTS = new Set([80, 443]);

// process-wide: a pure memo keyed by a compiled policy object (weak), which its owner holds
const cache = new WeakMap<CompiledPolicy, { allow: [string, Cidr][]; deny: [string, Cidr][] }>();

function cidrsOf(c: CompiledPolicy) {
  let v = cache.get(c);
  if (!v) {
    const parse = (list: string[]) => list.flatMap((s): [string, Cidr][] => (parseCidr(s) ? [[s, parseCidr(s)!]] : []));
    v = { allow: parse([...c.allow4, ...c.allow6]), deny: parse([...c.deny4, ...c.deny6]) };
    cache.set(c, v);
  }
  return v;
}

const covering = (list: [string, Cidr][], a: Addr) => list.find(([, cidr]) => inCidr(a, cidr))?.[0];

function defaultDecision(c: CompiledPolicy, what: string): Decision {
  if (!isDenyAll(c)) return { allowed: true, kind: 'default-allow', rule: `No rule names ${what}, and the policy allows by default.` };
  const all = c.deny4.includes(DENY_ALL_V4) ? DENY_ALL_V4 : DENY_ALL_V6;
  const why = c.denyEgressByDefault ? 'the policy denies by default' : `${all} in denyOut makes the policy deny by default (both IPv4 and IPv6)`;
  return { allowed: false, kind: 'default-deny', rule: `No allowOut entry names ${what}, and ${why}.` };
}

/** Judges a connection to an IP address (v4-mapped IPv6 is judged as its IPv4). */
export function decideAddress(c: CompiledPolicy, ip: string, port: number): Decision {
  const parsed = parseIp(ip);
  if (!parsed) return { allowed: false, kind: 'unresolved', rule: `"${ip}" is not an IP address.` };
  const a = unmap(parsed);
  const shown = a.toString();
  const blocked = blockedRange(a);
  if (blocked) return { allowed: false, kind: 'always-blocked', entry: blocked.cidr, rule: `${shown} is always blocked (${blocked.why}).` };
  const { allow, deny } = cidrsOf(c);
  const allowedBy = covering(allow, a);
  if (allowedBy) return { allowed: true, kind: 'allow-out', entry: allowedBy, rule: `allowOut "${allowedBy}" allows ${shown}.` };
  const priv = privateRange(a);
  if (priv) {
    return {
      allowed: false,
      kind: 'private',
      entry: priv.cidr,
      rule: `${shown} is in ${priv.cidr} (${priv.why}), denied unless an allowOut entry covers it.`,
    };
  }
  const deniedBy = covering(deny, a);
  if (deniedBy) return { allowed: false, kind: 'deny-out', entry: deniedBy, rule: `denyOut "${deniedBy}" denies ${shown}.` };
  if (port === 53) return { allowed: false, kind: 'dns', rule: `Port 53 on ${shown} is refused: DNS goes to the sandbox's forwarder.` };
  return defaultDecision(c, shown);
}

/** The allowOut entry naming a host: exact, or `*.x.com` for any subdomain of x.com (not x.com itself). */
export function nameAllowed(c: CompiledPolicy, host: string): { entry: string } | null {
  let h = host.toLowerCase();
  if (h.endsWith('.')) h = h.slice(0, -1);
  if (c.domains.includes(h)) return { entry: h };
  const w = c.wildcards.find((s) => h.endsWith(`.${s}`));
  return w ? { entry: `*.${w}` } : null;
}

/**
 * Judges a name before it is resolved; null means "resolve it, then ask decideResolved". A name no
 * entry allows is refused here under default deny, so the proxy never resolves a denied name. An IP
 * literal (a CONNECT or Host to an address) is judged as the address; numeric tricks are refused.
 */
export function decideName(c: CompiledPolicy, host: string, port: number): Decision | null {
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (parseIp(literal)) return decideAddress(c, literal, port);
  if (isNumericTrick(literal)) {
    return { allowed: false, kind: 'unresolved', rule: `"${host}" spells an IPv4 address in a form other than a dotted quad, which is not accepted.` };
  }
  if (!hostCharsOk(literal)) return { allowed: false, kind: 'unresolved', rule: `"${host}" is not a valid host name.` };
  const m = nameAllowed(c, host);
  if (!m) return isDenyAll(c) ? defaultDecision(c, host) : null;
  if (!WEB_PORTS.has(port) && isDenyAll(c)) {
    return {
      allowed: false,
      kind: 'domain-port',
      entry: m.entry,
      rule: `allowOut "${m.entry}" names ${host}, but domain rules apply to HTTP (80) and TLS (443) only, not port ${port}.`,
    };
  }
  return null;
}

/** Judges a name once resolved: every address must pass (DNS rebinding and spoofed answers fail here). */
export function decideResolved(c: CompiledPolicy, host: string, port: number, addresses: string[]): Decision {
  if (addresses.length === 0) return { allowed: false, kind: 'unresolved', rule: `${host} did not resolve to any address.` };
  const parsed: Addr[] = [];
  for (const text of addresses) {
    const p = parseIp(text);
    if (!p) return { allowed: false, kind: 'unresolved', rule: `${host} resolved to "${text}", which is not an IP address.` };
    parsed.push(unmap(p));
  }
  for (const a of parsed) {
    const r = blockedRange(a);
    if (r)
      return { allowed: false, kind: 'always-blocked', entry: r.cidr, rule: `${host} resolves to ${a}, in ${r.cidr}, which is always blocked (${r.why}).` };
  }
  const { allow } = cidrsOf(c);
  for (const a of parsed) {
    const r = privateRange(a);
    if (r && !covering(allow, a)) {
      return { allowed: false, kind: 'private', entry: r.cidr, rule: `${host} resolves to ${a}, in ${r.cidr} (${r.why}), which no allowOut entry covers.` };
    }
  }
  const m = nameAllowed(c, host);
  if (m && WEB_PORTS.has(port)) return { allowed: true, kind: 'allow-domain', entry: m.entry, rule: `allowOut "${m.entry}" allows ${host}.` };
  let first: Decision | null = null;
  for (const a of parsed) {
    const d = decideAddress(c, a.toString(), port);
    if (!d.allowed) return { ...d, rule: `${host} resolves to ${a}: ${d.rule}` };
    first ??= d;
  }
  return { ...first!, rule: `${host} resolves to ${parsed[0]}: ${first!.rule}` };
}

/** The tester: judges a destination without sending traffic; without addresses a name is judged by its rules alone. */
export function decideDestination(c: CompiledPolicy, dest: Destination, addresses?: string[]): Decision {
  if (dest.kind === 'ip') return decideAddress(c, dest.host, dest.port);
  const byName = decideName(c, dest.host, dest.port);
  if (byName) return byName;
  if (addresses) return decideResolved(c, dest.host, dest.port, addresses);
  const m = nameAllowed(c, dest.host);
  if (m && WEB_PORTS.has(dest.port)) {
    return {
      allowed: true,
      kind: 'allow-domain',
      entry: m.entry,
      rule: `allowOut "${m.entry}" allows ${dest.host}; the addresses it resolves to are re-checked at connect time (always-blocked and uncovered private ranges stay refused).`,
    };
  }
  const d = defaultDecision(c, dest.host);
  return d.allowed
    ? { ...d, rule: `${d.rule} The addresses it resolves to are still checked at connect time (always-blocked, private and denyOut ranges).` }
    : d;
}
