/**
 * What one build's gating read besides each skill's copies and verdict: the app config, the bundled
 * allowlist, the config entries, the acknowledgements, the target's resolved bins and the env values
 * the skills name. A later build keeps a skill's result when everything it read is still the same
 * (a bin found or lost, an env var set, an entry edited: that skill is gated again).
 */
import { buildInventory, type InventoryEntry } from '../catalog';
import type { GatingTarget, SkillCopy, SkillEntryConfig, SkillManifest } from '../types';
import type { ScanAck } from './entries';

export interface GateContext {
  target: string;
  configKey: string;
  allowBundledKey: string;
  entries: ReadonlyMap<string, SkillEntryConfig>;
  acks: ReadonlyMap<string, ScanAck>;
  found: Record<string, string | null>;
  /** The required files (PulseBot's `requires.configs`) as the target found them; null: the target cannot check files. */
  files: Record<string, boolean> | null;
  env: ReadonlyMap<string, string | undefined>;
  /** The copies the inventory was made from, and the inventory. */
  copies: readonly SkillCopy[];
  inventory: InventoryEntry[];
}

export interface GateInputs {
  config: Record<string, unknown>;
  allowBundled?: string[];
  entries: ReadonlyMap<string, SkillEntryConfig>;
  acks: ReadonlyMap<string, ScanAck>;
  target: GatingTarget;
}

const envNames = (m: SkillManifest) => (m.primaryEnv ? [...m.requires.env, m.primaryEnv] : m.requires.env);

/** The env values every winner's gating reads. */
export function envSnapshot(manifests: Iterable<SkillManifest>, env: Record<string, string | undefined>): Map<string, string | undefined> {
  const out = new Map<string, string | undefined>();
  for (const m of manifests) for (const n of envNames(m)) if (!out.has(n)) out.set(n, env[n]);
  return out;
}

export function contextOf(
  input: GateInputs,
  found: Record<string, string | null>,
  env: Map<string, string | undefined>,
  copies: readonly SkillCopy[],
  inventory: InventoryEntry[],
  files: Record<string, boolean> | null = null,
): GateContext {
  return {
    files,
    target: `${input.target.id}\0${input.target.platform}`,
    configKey: JSON.stringify(input.config),
    allowBundledKey: input.allowBundled ? JSON.stringify(input.allowBundled) : '',
    entries: input.entries,
    acks: input.acks,
    found,
    env,
    copies,
    inventory,
  };
}

function sameEntry(a: SkillEntryConfig | undefined, b: SkillEntryConfig | undefined): boolean {
  return a === b || (!!a && !!b && JSON.stringify(a) === JSON.stringify(b));
}

function sameAck(a: ScanAck | null | undefined, b: ScanAck | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a.reason === b.reason && a.acknowledgedBy === b.acknowledgedBy && a.acknowledgedAt.getTime() === b.acknowledgedAt.getTime();
}

/** Whether the app-wide inputs (target, config, allowlist) of `now` are those of `before`. */
export function sameGlobals(before: GateContext, now: GateContext): boolean {
  return before.target === now.target && before.configKey === now.configKey && before.allowBundledKey === now.allowBundledKey;
}

function sameMap<V>(a: ReadonlyMap<string, V>, b: ReadonlyMap<string, V>, eq: (x: V | undefined, y: V | undefined) => boolean): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (!eq(v, b.get(k))) return false;
  return true;
}

/** Whether everything any skill's gating reads is the same in both contexts (no skill needs sameReads then). */
export function sameEverything(before: GateContext, now: GateContext): boolean {
  const bins = Object.keys(now.found);
  if (bins.length !== Object.keys(before.found).length || bins.some((b) => before.found[b] !== now.found[b])) return false;
  if (!sameFiles(before.files, now.files)) return false;
  return (
    sameMap(before.env, now.env, (x, y) => x === y) &&
    sameMap(before.entries, now.entries, sameEntry) &&
    sameMap(before.acks, now.acks, (x, y) => sameAck(x, y))
  );
}

/** Whether the gating of a skill (its winner `copy`, owning its key or not) read the same in both contexts. */
export function sameReads(before: GateContext, now: GateContext, copy: SkillCopy, ownsKey: boolean): boolean {
  const m = copy.parsed.manifest;
  if (!sameAck(before.acks.get(copy.contentHash), now.acks.get(copy.contentHash))) return false;
  if (ownsKey && !sameEntry(before.entries.get(m.skillKey), now.entries.get(m.skillKey))) return false;
  for (const b of m.requires.bins) if (before.found[b] !== now.found[b]) return false;
  for (const b of m.requires.anyBins) if (before.found[b] !== now.found[b]) return false;
  for (const n of envNames(m)) if (before.env.get(n) !== now.env.get(n)) return false;
  for (const f of m.requires.files ?? []) if (before.files?.[f] !== now.files?.[f]) return false;
  return true;
}

function sameFiles(a: Record<string, boolean> | null, b: Record<string, boolean> | null): boolean {
  if (!a || !b) return a === b;
  const keys = Object.keys(b);
  return keys.length === Object.keys(a).length && keys.every((k) => a[k] === b[k]);
}

/**
 * The inventory of `copies`, from the previous one when `copies` is `before.copies` with some copies
 * replaced by copies of the same name at the same places (an edit inside skill folders): grouping and
 * precedence are then unchanged, only the replaced copies are swapped in.
 */
export function inventoryFrom(before: GateContext | undefined, copies: readonly SkillCopy[]): InventoryEntry[] {
  if (!before || before.copies.length !== copies.length) return buildInventory([...copies]);
  const replaced = new Map<SkillCopy, SkillCopy>();
  for (let i = 0; i < copies.length; i++) {
    const old = before.copies[i];
    if (old === copies[i]) continue;
    if (old.parsed.manifest.name !== copies[i].parsed.manifest.name) return buildInventory([...copies]);
    replaced.set(old, copies[i]);
  }
  if (replaced.size === 0) return before.inventory;
  const swap = (c: SkillCopy) => replaced.get(c) ?? c;
  return before.inventory.map((e) =>
    replaced.has(e.winner) || e.shadowed.some((c) => replaced.has(c)) ? { name: e.name, winner: swap(e.winner), shadowed: e.shadowed.map(swap) } : e,
  );
}
