// Reading the owned table back from `nft -j`: set elements as text, hooked chains, and each rule
// in a short text form, so a check can say what the kernel holds, not what was sent.
import ipaddr from 'ipaddr.js';
import type { NftJson } from './nft';

type Obj = Record<string, unknown>;
const items = (json: NftJson, kind: string): Obj[] => json.nftables.filter((o) => kind in o).map((o) => o[kind] as Obj);

function elementText(e: unknown): string {
  if (typeof e === 'string') return e;
  const o = e as Obj;
  if (o.prefix) return `${(o.prefix as Obj).addr}/${(o.prefix as Obj).len}`;
  if (Array.isArray(o.range)) return `${o.range[0]}-${o.range[1]}`;
  if (o.elem) return elementText((o.elem as Obj).val);
  return JSON.stringify(e);
}

/** A set's elements as nft holds them (after auto-merge): "a.b.c.d", "net/len" or "from-to". */
export function setElements(json: NftJson, name: string): string[] {
  const found = items(json, 'set').find((s) => s.name === name);
  if (!found) throw new Error(`set ${name} is not in the table`);
  return ((found.elem as unknown[]) ?? []).map(elementText);
}

const bits = (a: ipaddr.IPv4 | ipaddr.IPv6) => a.toByteArray().reduce((n, b) => (n << 8n) | BigInt(b), 0n);

function span(text: string): { kind: string; from: bigint; to: bigint } {
  if (text.includes('-')) {
    const [a, b] = text.split('-').map((x) => ipaddr.parse(x));
    return { kind: a.kind(), from: bits(a), to: bits(b) };
  }
  const [addr, len] = text.includes('/') ? ipaddr.parseCIDR(text) : [ipaddr.parse(text), ipaddr.parse(text).kind() === 'ipv4' ? 32 : 128];
  const width = addr.kind() === 'ipv4' ? 32 : 128;
  const host = (1n << BigInt(width - len)) - 1n;
  const from = bits(addr) & ~host;
  return { kind: addr.kind(), from, to: from | host };
}

/** Whether the set covers every address of `cidr` (an address or CIDR). */
export function setCovers(json: NftJson, name: string, cidr: string): boolean {
  const want = span(cidr);
  return setElements(json, name).some((e) => {
    const have = span(e);
    return have.kind === want.kind && have.from <= want.from && want.to <= have.to;
  });
}

/** The base chains: name → `type hook priority policy`. */
export function baseChains(json: NftJson): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of items(json, 'chain')) if (c.hook) out[c.name as string] = `${c.type} ${c.hook} ${c.prio} ${c.policy}`;
  return out;
}

function operand(v: unknown): string {
  if (typeof v !== 'object' || v === null) return String(v);
  const o = v as Obj;
  if (o.payload) return `${(o.payload as Obj).protocol ?? 'th'} ${(o.payload as Obj).field}`;
  if (o.meta) return (o.meta as Obj).key as string;
  if (o.ct) return `ct ${(o.ct as Obj).key}`;
  if (o.set) return `{ ${(o.set as unknown[]).map(operand).join(', ')} }`;
  if (Array.isArray(v)) return v.map(operand).join(',');
  return JSON.stringify(v);
}

function statement(s: Obj): string {
  const [key, val] = Object.entries(s)[0] ?? ['?', null];
  if (key === 'match') return `${operand((val as Obj).left)} ${operand((val as Obj).right)}`;
  if (key === 'jump' || key === 'goto') return `${key} ${(val as Obj).target}`;
  if (key === 'redirect') return `redirect to :${(val as Obj).port}`;
  if (key === 'reject') return `reject ${(val as Obj | null)?.type ?? ''} ${(val as Obj | null)?.expr ?? ''}`.trim();
  return val === null ? key : `${key} ${JSON.stringify(val)}`;
}

/** The rules of one chain, in order, each as its statements joined by spaces (e.g. `iifname sdk1 jump n_1`). */
export function chainRules(json: NftJson, chain: string): string[] {
  return items(json, 'rule')
    .filter((r) => r.chain === chain)
    .map((r) => (r.expr as Obj[]).map(statement).join(' '));
}
