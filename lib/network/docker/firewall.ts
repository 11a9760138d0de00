// Which packet filter carries the owned rules: nft when it is there, else iptables + ipset. Both
// install the same rules under names derived from the table, and remove all of them.
import { applyIptables, deleteIptables, iptablesAvailable } from './ipt';
import { applyTable, deleteTable, type FirewallRunOptions, nftAvailable, renderTable } from './nft';
import type { ManagedNetwork } from './nft-rules';

export interface Firewall {
  kind: 'nft' | 'iptables';
  /** Replaces every rule of `table` with those of `nets`; nft also marks the table with its `owner` installation. */
  apply(table: string, nets: ManagedNetwork[], owner?: string): Promise<void>;
  /** Removes every rule, chain and set of `table`; nothing happens when none exist. */
  remove(table: string): Promise<void>;
}

export function nftFirewall(opts: FirewallRunOptions = {}): Firewall {
  return { kind: 'nft', apply: (table, nets, owner) => applyTable(renderTable(table, nets, owner), opts), remove: (table) => deleteTable(table, opts) };
}

export function iptablesFirewall(opts: FirewallRunOptions = {}): Firewall {
  return { kind: 'iptables', apply: (table, nets) => applyIptables(table, nets, opts), remove: (table) => deleteIptables(table, opts) };
}

/** The firewall this host can use, or null when neither nft nor iptables with ipset works here. */
export async function chooseFirewall(opts: FirewallRunOptions = {}): Promise<Firewall | null> {
  if (await nftAvailable(opts)) return nftFirewall(opts);
  if (await iptablesAvailable(opts)) return iptablesFirewall(opts);
  return null;
}
