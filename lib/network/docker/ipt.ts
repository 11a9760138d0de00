// Applies, reads and deletes the iptables + ipset form of the owned rules. Scripts go on stdin, never
// on a command line; only chains and sets carrying the table's prefix, and the one jump per hook
// into them, are ever changed.

import { hooks, iptablesNames, renderIptables } from './ipt-rules';
import { type FirewallRunOptions, type FirewallTool, runFirewallTool, toolFailed } from './nft-exec';
import type { ManagedNetwork } from './nft-rules';

type Fam = 'v4' | 'v6';
type Table = 'filter' | 'nat';
const TABLES: Table[] = ['filter', 'nat'];
const tool = (f: Fam, what: '' | '-restore' | '-save') => `${f === 'v4' ? 'iptables' : 'ip6tables'}${what}` as FirewallTool;

async function run(name: FirewallTool, args: string[], what: string, opts: FirewallRunOptions & { stdin?: string }): Promise<string> {
  const result = await runFirewallTool(name, args, opts);
  if (result.code !== 0) throw toolFailed(name, what, result);
  return result.stdout;
}

interface Saved {
  /** Chains declared in each table. */
  chains: Record<Table, string[]>;
  /** The `-A …` lines of each table. */
  rules: Record<Table, string[]>;
}

async function save(f: Fam, opts: FirewallRunOptions): Promise<Saved> {
  const saved: Saved = { chains: { filter: [], nat: [] }, rules: { filter: [], nat: [] } };
  for (const t of TABLES) {
    const out = await run(tool(f, '-save'), ['-t', t], `read the ${t} table`, opts);
    for (const line of out.split('\n')) {
      if (line.startsWith(':')) saved.chains[t].push(line.slice(1).split(' ')[0] ?? '');
      else if (line.startsWith('-A ')) saved.rules[t].push(line);
    }
  }
  return saved;
}

const ours = (P: string) => (chain: string) => chain.startsWith(`${P}-`);
const chainOf = (rule: string) => rule.split(' ')[1] ?? '';
/** A rule outside our chains that jumps into one of them: a hook jump. */
const hookRule = (P: string) => (rule: string) => !ours(P)(chainOf(rule)) && new RegExp(` -[jg] ${P}-\\S+( |$)`).test(rule);

export interface IptablesState {
  /** Per family and table, the `-A …` lines of our chains and the jumps into them, as iptables-save prints them. */
  v4: Record<Table, string[]>;
  v6: Record<Table, string[]>;
  /** Our sets and their members. */
  sets: Record<string, string[]>;
}

async function ourSets(opts: FirewallRunOptions, p: string): Promise<string[]> {
  const out = await run('ipset', ['list', '-n'], 'list its sets', opts);
  return out.split('\n').filter((n) => n.startsWith(`${p}-`));
}

/** Our chains, the hook jumps and our sets, read back from the kernel. */
export async function readIptables(table: string, opts: FirewallRunOptions = {}): Promise<IptablesState> {
  const { chain: P, set: p } = iptablesNames(table);
  const state: IptablesState = { v4: { filter: [], nat: [] }, v6: { filter: [], nat: [] }, sets: {} };
  for (const f of ['v4', 'v6'] as const) {
    const saved = await save(f, opts);
    for (const t of TABLES) state[f][t] = saved.rules[t].filter((r) => ours(P)(chainOf(r)) || hookRule(P)(r));
  }
  const names = new Set(await ourSets(opts, p));
  for (const n of names) state.sets[n] = [];
  const out = await run('ipset', ['save'], 'save its sets', opts);
  for (const line of out.split('\n')) {
    const [verb, name, member] = line.split(' ');
    if (verb === 'add' && name && member && names.has(name)) state.sets[name]?.push(member);
  }
  return state;
}

/** Deletes our chains in one restore per family: declared (so emptied), jumps removed, then deleted. */
async function dropChains(f: Fam, drop: Record<Table, string[]>, unhook: Record<Table, string[]>, opts: FirewallRunOptions): Promise<void> {
  const lines = TABLES.flatMap((t) =>
    drop[t].length || unhook[t].length
      ? [`*${t}`, ...drop[t].map((c) => `:${c} - [0:0]`), ...unhook[t].map((r) => `-D${r.slice(2)}`), ...drop[t].map((c) => `-X ${c}`), 'COMMIT']
      : [],
  );
  if (lines.length) await run(tool(f, '-restore'), ['-w', '5', '--noflush'], 'delete its stale chains', { ...opts, stdin: `${lines.join('\n')}\n` });
}

/**
 * Sets first (swapped in one by one, so a rule never sees a half-filled set), then each family's
 * chains in one restore, then the hook jumps where missing, then whatever of ours is no longer used.
 */
export async function applyIptables(table: string, nets: ManagedNetwork[], opts: FirewallRunOptions = {}): Promise<void> {
  const scripts = renderIptables(table, nets);
  const { chain: P, set: p } = iptablesNames(table);
  await run('ipset', ['restore'], 'apply the firewall sets', { ...opts, stdin: scripts.ipset });
  for (const f of ['v4', 'v6'] as const) {
    await run(tool(f, '-restore'), ['-w', '5', '--noflush'], 'apply the firewall chains', { ...opts, stdin: scripts[f] });
    const saved = await save(f, opts);
    for (const h of hooks(table)) {
      const chain = h.fallback && !saved.chains[h.table].includes(h.chain) ? h.fallback : h.chain;
      const jump = (op: string, c: string) => ['-w', '5', '-t', h.table, op, c, '-j', h.target];
      if ((await runFirewallTool(tool(f, ''), jump('-C', chain), opts)).code !== 0) {
        await run(tool(f, ''), jump('-I', chain), `hook ${h.target} into ${chain}`, opts);
      }
      // Docker's chain appeared after a jump went in the fallback: the jump moves, it is not doubled.
      const other = chain === h.chain ? h.fallback : h.chain;
      if (other && saved.rules[h.table].includes(`-A ${other} -j ${h.target}`)) {
        await run(tool(f, ''), jump('-D', other), `unhook ${h.target} from ${other}`, opts);
      }
    }
    const stale = (t: Table) => saved.chains[t].filter((c) => ours(P)(c) && !scripts.chains[f][t].includes(c));
    await dropChains(f, { filter: stale('filter'), nat: stale('nat') }, { filter: [], nat: [] }, opts);
  }
  for (const name of await ourSets(opts, p)) {
    if (!scripts.sets.includes(name)) await run('ipset', ['destroy', name], `destroy the stale set ${name}`, opts);
  }
}

/** Removes the hook jumps, our chains and our sets; nothing happens when none exist. */
export async function deleteIptables(table: string, opts: FirewallRunOptions = {}): Promise<void> {
  const { chain: P, set: p } = iptablesNames(table);
  for (const f of ['v4', 'v6'] as const) {
    const saved = await save(f, opts);
    const pick = <T>(fn: (t: Table) => T[]) => ({ filter: fn('filter'), nat: fn('nat') });
    await dropChains(
      f,
      pick((t) => saved.chains[t].filter(ours(P))),
      pick((t) => saved.rules[t].filter(hookRule(P))),
      opts,
    );
  }
  for (const name of await ourSets(opts, p)) await run('ipset', ['destroy', name], `destroy the set ${name}`, opts);
}

/** Whether iptables, ip6tables and ipset are installed and this process may read and change them. */
export async function iptablesAvailable(opts: FirewallRunOptions = {}): Promise<boolean> {
  const probes: [FirewallTool, string[]][] = [
    ['iptables', ['-w', '5', '-t', 'nat', '-S', 'PREROUTING']],
    ['ip6tables', ['-w', '5', '-t', 'nat', '-S', 'PREROUTING']],
    ['iptables-restore', ['--version']],
    ['ip6tables-restore', ['--version']],
    ['ipset', ['list', '-n']],
  ];
  try {
    for (const [name, args] of probes) if ((await runFirewallTool(name, args, opts)).code !== 0) return false;
    return true;
  } catch {
    return false;
  }
}
