/** Which skill owns each claimed skillKey (its config entry and secrets), and what a skill that does not own its key is told. */
import type { InventoryEntry } from '../catalog';
import type { GatingResult } from '../types';

/**
 * Who owns each skillKey: the skill named like the key; else the owner of the previous build while
 * it still claims the key; else its only claimant. A key several skills claim with none of these
 * belongs to nobody: no skill gets config or secrets it may not be meant to have.
 */
export function keyOwners(inventory: InventoryEntry[], previous: Map<string, string> | undefined): Map<string, string | null> {
  const claims = new Map<string, string[]>();
  for (const e of inventory) {
    const key = e.winner.parsed.manifest.skillKey;
    const names = claims.get(key);
    if (names) names.push(e.name);
    else claims.set(key, [e.name]);
  }
  const owners = new Map<string, string | null>();
  for (const [key, names] of claims) {
    const before = previous?.get(key);
    owners.set(key, names.includes(key) ? key : before && names.includes(before) ? before : names.length === 1 ? names[0] : null);
  }
  if (previous) {
    previous.clear();
    for (const [key, owner] of owners) if (owner) previous.set(key, owner);
  }
  return owners;
}

export function withoutKey(gating: GatingResult, key: string, owner: string | null): GatingResult {
  const reason = owner
    ? `skillKey "${key}" belongs to the skill ${owner}: this skill gets none of its config or secrets; give it a skillKey of its own`
    : `skillKey "${key}" is claimed by several skills and none is named after it: none gets its config or secrets; give each a skillKey of its own`;
  return { ...gating, eligible: false, reasons: [reason, ...gating.reasons] };
}
