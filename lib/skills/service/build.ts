/**
 * One catalog build, without a database: discover the roots (each folder listed, hashed, parsed and
 * scanned in the scanner's worker threads), keep every copy of a name, gate the winners against the target. The
 * live catalog feeds it settings, entries and acknowledgements; the benchmark calls it as is. With a
 * CopyCache kept across builds, folders whose files kept their stat identity are not read again;
 * handed the previous build, skills whose copies and gating reads are unchanged keep their result;
 * updateCatalog reloads only the folders a watcher saw change.
 */
import path from 'node:path';
import { type CopyCache, discoverSkills, type InventoryEntry, reloadCopy, SKILL_FILE } from '../catalog';
import { type FolderLoadOptions, scanInput } from '../folder-load';
import { collectBins, collectFiles, evaluateGating } from '../gating';
import { declaredOf, knowScans, loadSkillFolderInPool, scanSkillFiles } from '../scanner';
import type { SearchDoc } from '../search';
import type {
  GatingResult,
  GatingTarget,
  MetadataKey,
  RootWarning,
  ScanResult,
  SkillCopy,
  SkillEntryConfig,
  SkillFile,
  SkillManifest,
  SkillRoot,
} from '../types';
import type { ScanAck } from './entries';
import { contextOf, envSnapshot, type GateContext, inventoryFrom, sameEverything, sameGlobals, sameReads } from './gate-memo';
import { keyOwners, withoutKey } from './key-owners';

export type SkillStatus = 'ready' | 'needs-setup' | 'disabled' | 'invalid' | 'blocked';

export interface CatalogSkill {
  /** The winning copy's id. */
  id: string;
  name: string;
  skillKey: string;
  copy: SkillCopy;
  shadowed: SkillCopy[];
  scan: ScanResult;
  ack: ScanAck | null;
  gating: GatingResult;
  status: SkillStatus;
  /** The skill that owns this skill's `skillKey` (its config entry and secrets); null when several claim it and none owns it. */
  keyOwner: string | null;
}

export interface BuildInput {
  roots: SkillRoot[];
  discover: { allowSymlinkTargets: string[]; maxCandidatesPerRoot: number; maxSkillFileBytes: number; groupDepth: number };
  /** The metadata blocks SKILL.md is read with, in order (the skills setting); default: all, in the default order. */
  metadataKeys?: readonly MetadataKey[];
  allowBundled?: string[];
  config: Record<string, unknown>;
  entries: ReadonlyMap<string, SkillEntryConfig>;
  acks: ReadonlyMap<string, ScanAck>;
  target: GatingTarget;
  /** Scanner results by content hash, kept across builds: an unchanged skill is not scanned again. */
  scans: Map<string, ScanResult>;
  /** Stat identities and copies kept across builds: an unchanged folder is not read, hashed or parsed again. */
  cache?: CopyCache;
  /** Roots a watcher vouches for since the build that filled `cache` (DiscoverOptions.quietRoots); this build only. */
  quietRoots?: ReadonlySet<string>;
  /** Owner of each claimed skillKey, kept across builds (updated by each build): a key's first owner keeps it. */
  keyOwners?: Map<string, string>;
}

export interface BuiltCatalog {
  skills: CatalogSkill[];
  warnings: RootWarning[];
  /** Every copy in discovery order (what updateCatalog starts from). */
  copies: SkillCopy[];
  /** What the gating read: the next build keeps the result of a skill for which nothing of it changed. */
  gate: GateContext;
}

// process-wide: a pure memo keyed by a catalog skill object (weak), which its catalog holds
const docOf = new WeakMap<CatalogSkill, SearchDoc>();

/** What the search index holds of each skill; a skill kept from the previous build keeps its document (the index skips it by identity). */
export function searchDocs(skills: CatalogSkill[]): SearchDoc[] {
  return skills.map((s) => {
    let doc = docOf.get(s);
    if (!doc) {
      doc = {
        id: s.id,
        name: s.name,
        description: s.copy.parsed.manifest.description,
        body: s.copy.parsed.manifest.body,
        source: s.copy.source,
        status: s.status,
        eligible: s.gating.eligible,
      };
      docOf.set(s, doc);
    }
    return doc;
  });
}

export function statusOf(valid: boolean, scan: ScanResult, ack: ScanAck | null, gating: GatingResult): SkillStatus {
  if (!valid) return 'invalid';
  if ((scan.verdict === 'critical' || scan.verdict === 'error') && !ack) return 'blocked';
  if (gating.disabled || gating.blockedByAllowlist) return 'disabled';
  return gating.eligible ? 'ready' : 'needs-setup';
}

/**
 * Scans a skill folder's files against what its manifest declares. `contents` holds bytes already
 * read (by the hashing); the rest are read here. Every file goes to the scanner: it answers more than
 * it can check with an error verdict, which blocks.
 */
export async function scanSkillDir(
  dir: string,
  fileList: SkillFile[],
  m: SkillManifest,
  contents: ReadonlyMap<string, Buffer> = new Map(),
): Promise<ScanResult> {
  try {
    return await scanSkillFiles(await scanInput(dir, fileList, contents), declaredOf(m));
  } catch (e) {
    return { verdict: 'error', findings: [], filesScanned: 0, error: `The scan could not read the skill's files: ${(e as Error).message}` };
  }
}

function discoverOptions(input: BuildInput) {
  // The workers learn once per build which contents are scanned already (new hashes only).
  knowScans(input.scans.keys());
  return {
    ...input.discover,
    cache: input.cache,
    load: input.metadataKeys
      ? (dir: string, o: FolderLoadOptions) => loadSkillFolderInPool(dir, { ...o, metadataKeys: input.metadataKeys })
      : loadSkillFolderInPool,
    inspect: async (copy: SkillCopy, contents: ReadonlyMap<string, Buffer>, scan?: ScanResult) => {
      if (!input.scans.has(copy.contentHash))
        input.scans.set(copy.contentHash, scan ?? (await scanSkillDir(copy.dir, copy.files, copy.parsed.manifest, contents)));
    },
  };
}

/** `previous`: the last build of the same catalog, whose results are kept where nothing they depend on changed. */
export async function buildCatalog(input: BuildInput, previous?: BuiltCatalog | null): Promise<BuiltCatalog> {
  const { copies, warnings } = await discoverSkills(input.roots, { ...discoverOptions(input), quietRoots: input.quietRoots });
  const { skills, gate } = await assemble(copies, input, previous ?? null);
  forgetTimedOut(input.scans);
  return { skills, warnings, copies, gate };
}

/** A scan cut off by its time budget is this build's verdict only: the next build scans the skill again. */
function forgetTimedOut(scans: Map<string, ScanResult>): void {
  for (const [hash, r] of scans) if (r.timedOut) scans.delete(hash);
}

/**
 * The catalog after changes inside known skill folders (paths from the watcher), with the same input
 * as the build that made `prev`: only those folders are reloaded, only the names whose copies changed
 * are gated again. Null when a change is not inside a known skill folder (a folder added, removed or
 * replaced, a group changed, SKILL.md gone): the caller builds in full.
 */
export async function updateCatalog(prev: BuiltCatalog, changed: readonly string[], input: BuildInput): Promise<BuiltCatalog | null> {
  const byDir = new Map(prev.copies.map((c, i) => [c.dir, i]));
  const touched = new Set<number>();
  for (const p of changed) {
    if (byDir.has(p)) return null;
    let dir = path.dirname(p);
    let hit = byDir.get(dir);
    while (hit === undefined && path.dirname(dir) !== dir) hit = byDir.get((dir = path.dirname(dir)));
    if (hit === undefined) return null;
    touched.add(hit);
  }
  const copies = [...prev.copies];
  let warnings = prev.warnings;
  const opts = discoverOptions(input);
  for (const i of touched) {
    const old = prev.copies[i];
    const root = input.roots.find((r) => r.kind === old.source && r.path === old.root);
    const reloaded = root && (await reloadCopy(root, old, opts));
    if (reloaded?.copies.length !== 1) return null;
    copies[i] = reloaded.copies[0];
    const gone = new Set([old.dir, path.join(old.dir, SKILL_FILE)]);
    warnings = [...warnings.filter((w) => !gone.has(w.path)), ...reloaded.warnings];
  }
  const { skills, gate } = await assemble(copies, input, prev, true);
  forgetTimedOut(input.scans);
  return { skills, warnings, copies, gate };
}

const sameCopies = (a: readonly SkillCopy[], b: readonly SkillCopy[]) => a.length === b.length && a.every((c, i) => c === b[i]);

/**
 * Inventory, verdicts and gating of `copies`. A skill of `prev` whose winner and shadowed copies are
 * the very same objects, with the same verdict, key owner and gating reads, is kept as it was.
 * `update`: the input is the one that made `prev` (the watcher path): only the skills that changed
 * look their bins and env up, unless what they find differs from what `prev` read.
 */
async function assemble(
  copies: SkillCopy[],
  input: BuildInput,
  prev: BuiltCatalog | null,
  update = false,
): Promise<{ skills: CatalogSkill[]; gate: GateContext }> {
  const before = prev?.gate;
  const inventory = inventoryFrom(before, copies);
  const owners = keyOwners(inventory, input.keyOwners);
  const previous = new Map(prev ? prev.skills.map((s) => [s.name, s]) : []);
  const kept = (e: InventoryEntry, old: CatalogSkill | undefined): old is CatalogSkill =>
    !!old &&
    old.copy === e.winner &&
    sameCopies(old.shadowed, e.shadowed) &&
    old.keyOwner === owners.get(old.skillKey) &&
    old.scan === input.scans.get(e.winner.contentHash);
  let now =
    update && before
      ? await updatedContext(
          before,
          inventory.filter((e) => !kept(e, previous.get(e.name))),
          input,
          copies,
          inventory,
        )
      : null;
  let same: (e: InventoryEntry, old: CatalogSkill | undefined) => old is CatalogSkill = kept;
  if (!now) {
    const winners = inventory.map((e) => e.winner.parsed.manifest);
    // Every winner's bins, not only those of changed skills: a bin found or lost changes the skills that need it.
    const found = await input.target.which(collectBins(winners));
    now = contextOf(input, found, envSnapshot(winners, input.target.env), copies, inventory, await filesOf(input, winners));
    const current = now;
    const keep = before && sameGlobals(before, current) ? before : null;
    const reads = !keep ? null : sameEverything(keep, current) ? 'all' : keep;
    same = (e, old): old is CatalogSkill => kept(e, old) && (reads === 'all' || (!!reads && sameReads(reads, current, e.winner, old.keyOwner === e.name)));
  }
  const skills: CatalogSkill[] = [];
  for (const e of inventory) {
    const old = previous.get(e.name);
    skills.push(same(e, old) ? old : await gate(e, input, now, owners.get(e.winner.parsed.manifest.skillKey) ?? null));
  }
  return { skills, gate: now };
}

/** `before` extended with what the changed skills read; null when they read a bin or env var that is not what `before` saw. */
async function updatedContext(
  before: GateContext,
  changed: InventoryEntry[],
  input: BuildInput,
  copies: SkillCopy[],
  inventory: InventoryEntry[],
): Promise<GateContext | null> {
  const manifests = changed.map((e) => e.winner.parsed.manifest);
  const found = manifests.length ? await input.target.which(collectBins(manifests)) : {};
  for (const [bin, at] of Object.entries(found)) if (Object.hasOwn(before.found, bin) && before.found[bin] !== at) return null;
  const files = await filesOf(input, manifests);
  for (const [f, ok] of Object.entries(files ?? {})) if (before.files && Object.hasOwn(before.files, f) && before.files[f] !== ok) return null;
  const env = new Map(before.env);
  for (const [name, value] of envSnapshot(manifests, input.target.env)) {
    if (env.has(name) && env.get(name) !== value) return null;
    env.set(name, value);
  }
  return { ...before, found: { ...before.found, ...found }, files: files && { ...before.files, ...files }, env, copies, inventory };
}

/** Whether each required file exists on the target; null when the target cannot check files. */
async function filesOf(input: BuildInput, manifests: SkillManifest[]): Promise<Record<string, boolean> | null> {
  if (!input.target.exists) return null;
  const files = collectFiles(manifests);
  return files.length ? input.target.exists(files) : {};
}

async function gate(e: InventoryEntry, input: BuildInput, ctx: GateContext, keyOwner: string | null): Promise<CatalogSkill> {
  const copy = e.winner;
  const m = copy.parsed.manifest;
  let result = input.scans.get(copy.contentHash);
  if (!result) input.scans.set(copy.contentHash, (result = await scanSkillDir(copy.dir, copy.files, m)));
  const ack = input.acks.get(copy.contentHash) ?? null;
  const ownsKey = keyOwner === e.name;
  const evaluated = evaluateGating({
    manifest: m,
    source: copy.source,
    entry: ownsKey ? input.entries.get(m.skillKey) : undefined,
    allowBundled: input.allowBundled,
    config: input.config,
    found: ctx.found,
    files: ctx.files ?? undefined,
    targetEnv: input.target.env,
    platform: input.target.platform,
  });
  const gating = ownsKey ? evaluated : withoutKey(evaluated, m.skillKey, keyOwner);
  return {
    id: copy.id,
    name: e.name,
    skillKey: m.skillKey,
    copy,
    shadowed: e.shadowed,
    scan: result,
    ack,
    gating,
    status: statusOf(copy.parsed.valid, result, ack, gating),
    keyOwner,
  };
}
