// Which installation owns an nft table of a given name: the table carries an empty chain named
// after it, so a second installation configured with the same table name can tell and refuse.
import { hasCode } from '../../core/errors';
import { type FirewallRunOptions, readTable } from './nft';
import { OWNER_CHAIN_PREFIX } from './nft-rules';

export type TableOwner = { exists: false } | { exists: true; owner: string | null };

/** The table's owner installation; `owner: null` for a table without a marker (an older Skilldock). */
export async function tableOwner(table: string, opts: FirewallRunOptions = {}): Promise<TableOwner> {
  let json: Awaited<ReturnType<typeof readTable>>;
  try {
    json = await readTable(table, opts);
  } catch (e) {
    if (hasCode(e, 'not_found')) return { exists: false };
    throw e;
  }
  for (const o of json.nftables) {
    const name = (o.chain as { name?: unknown } | undefined)?.name;
    if (typeof name === 'string' && name.startsWith(OWNER_CHAIN_PREFIX)) return { exists: true, owner: name.slice(OWNER_CHAIN_PREFIX.length) };
  }
  return { exists: true, owner: null };
}

/** Why this installation must not take the table, or null when it is free, unmarked or its own. */
export async function foreignTableProblem(table: string, installation: string, opts: FirewallRunOptions = {}): Promise<string | null> {
  const t = await tableOwner(table, opts);
  if (!t.exists || t.owner === null || t.owner === installation) return null;
  return `The nft table inet ${table} on this host belongs to another Skilldock installation (${t.owner}); this one (${installation}) will not touch it. Give each installation its own SKILLDOCK_NFT_TABLE.`;
}
