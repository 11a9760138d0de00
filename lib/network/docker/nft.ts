// Applies, reads and deletes the owned nft table. Scripts go on stdin (`nft -f -`), never on a
// command line; nothing outside the named table is read or changed.
import { AppError } from '@/lib/core/errors';
import { type FirewallRunOptions, runFirewallTool, toolFailed } from './nft-exec';
import { tableName } from './nft-values';

export type { FirewallRunOptions } from './nft-exec';
export { type ManagedNetwork, renderTable } from './nft-rules';

/** The answer of `nft -j list table …`: `{ nftables: [ {metainfo}, {table}, {set}, {chain}, {rule}, … ] }`. */
export interface NftJson {
  nftables: Record<string, unknown>[];
}

const MAX_SCRIPT = 8 * 1024 * 1024;

/** Runs one nft script as a single transaction: all of it applies, or none of it does. */
export async function applyTable(script: string, opts: FirewallRunOptions = {}): Promise<void> {
  if (typeof script !== 'string' || script.length === 0 || script.length > MAX_SCRIPT) {
    throw new AppError('validation', 'The nft script is empty or too large.');
  }
  const result = await runFirewallTool('nft', ['-f', '-'], { ...opts, stdin: script });
  if (result.code !== 0) throw toolFailed('nft', 'apply the firewall table', result);
}

/** The table as nft's JSON; `not_found` when it does not exist. */
export async function readTable(table: string, opts: FirewallRunOptions = {}): Promise<NftJson> {
  const t = tableName(table, 'table');
  const result = await runFirewallTool('nft', ['-j', 'list', 'table', 'inet', t], opts);
  if (result.code !== 0) {
    if (/No such file or directory/.test(result.stderr)) throw new AppError('not_found', `The nft table inet ${t} does not exist.`);
    throw toolFailed('nft', `read the table ${t}`, result);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.stdout);
  } catch (e) {
    throw new AppError('internal', `nft answered with JSON that does not parse for the table ${t}.`, { cause: e });
  }
  if (!parsed || !Array.isArray((parsed as NftJson).nftables)) throw new AppError('internal', `nft answered without a "nftables" list for the table ${t}.`);
  return parsed as NftJson;
}

/** Removes the table; nothing happens when it is absent (the empty `table` line makes the delete valid). */
export async function deleteTable(table: string, opts: FirewallRunOptions = {}): Promise<void> {
  const t = tableName(table, 'table');
  await applyTable(`table inet ${t} {}\ndelete table inet ${t}\n`, opts);
}

/**
 * Whether nft is installed and this process may change the ruleset: `nft -c` checks a throwaway
 * table against the kernel without committing it.
 */
export async function nftAvailable(opts: FirewallRunOptions = {}): Promise<boolean> {
  try {
    const result = await runFirewallTool('nft', ['-c', '-f', '-'], { ...opts, stdin: 'table inet skilldock_probe {}\n' });
    return result.code === 0;
  } catch {
    return false;
  }
}
