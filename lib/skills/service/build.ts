/**
 * One catalog build, without a database: discover the roots (the scanner reading each file's bytes
 * as discovery hashes them), keep every copy of a name, gate the winners against the target. The
 * live catalog feeds it settings, entries and acknowledgements; the benchmark calls it as is. With a
 * CopyCache kept across builds, folders whose files kept their stat identity are not read again;
 * updateCatalog reloads only the folders a watcher saw change.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { buildInventory, type CopyCache, discoverSkills, type InventoryEntry, reloadCopy, SKILL_FILE } from '../catalog';
import { collectBins, evaluateGating } from '../gating';
import { scanSkillFiles } from '../scanner';
import type { SearchDoc } from '../search';
import type { GatingResult, GatingTarget, RootWarning, ScanResult, SkillCopy, SkillEntryConfig, SkillFile, SkillManifest, SkillRoot } from '../types';
import type { ScanAck } from './entries';

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
  allowBundled?: string[];
  config: Record<string, unknown>;
  entries: ReadonlyMap<string, SkillEntryConfig>;
  acks: ReadonlyMap<string, ScanAck>;
  target: GatingTarget;
  /** Scanner results by content hash, kept across builds: an unchanged skill is not scanned again. */
  scans: Map<string, ScanResult>;
  /** Stat identities and copies kept across builds: an unchanged folder is not read, hashed or parsed again. */
  cache?: CopyCache;
  /** Owner of each claimed skillKey, kept across builds (updated by each build): a key's first owner keeps it. */
  keyOwners?: Map<string, string>;
}

export interface BuiltCatalog {
  skills: CatalogSkill[];
  warnings: RootWarning[];
  /** Every copy in discovery order (what updateCatalog starts from). */
  copies: SkillCopy[];
}

/** What the search index holds of each skill. */
export function searchDocs(skills: CatalogSkill[]): SearchDoc[] {
  return skills.map((s) => ({
    id: s.id,
    name: s.name,
    description: s.copy.parsed.manifest.description,
    body: s.copy.parsed.manifest.body,
    source: s.copy.source,
    status: s.status,
    eligible: s.gating.eligible,
  }));
}

/** Files over 1 MiB are not read whole for hashing: the scanner gets their first bytes (binary detection, a text file's start). */
const HEAD_BYTES = 64 * 1024;
const WHOLE_READ = 1024 * 1024;

async function readHead(file: string): Promise<Buffer> {
  const fh = await fsp.open(file, 'r');
  try {
    const buf = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await fh.read(buf, 0, HEAD_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
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
    const files = await Promise.all(
      fileList.map(async (f) => ({
        path: f.path,
        content: contents.get(f.path) ?? (f.size <= WHOLE_READ ? await fsp.readFile(path.join(dir, f.path)) : await readHead(path.join(dir, f.path))),
      })),
    );
    return await scanSkillFiles(files, {
      env: m.requires.env,
      primaryEnv: m.primaryEnv,
      bins: [...m.requires.bins, ...m.requires.anyBins],
      homepage: m.homepage,
      installUrls: m.install.flatMap((i) => (i.url ? [i.url] : [])),
    });
  } catch (e) {
    return { verdict: 'error', findings: [], filesScanned: 0, error: `The scan could not read the skill's files: ${(e as Error).message}` };
  }
}

function discoverOptions(input: BuildInput) {
  return {
    ...input.discover,
    cache: input.cache,
    inspect: async (copy: SkillCopy, contents: ReadonlyMap<string, Buffer>) => {
      if (!input.scans.has(copy.contentHash)) input.scans.set(copy.contentHash, await scanSkillDir(copy.dir, copy.files, copy.parsed.manifest, contents));
    },
  };
}

export async function buildCatalog(input: BuildInput): Promise<BuiltCatalog> {
  const { copies, warnings } = await discoverSkills(input.roots, discoverOptions(input));
  const skills = await assemble(copies, input, new Map());
  forgetTimedOut(input.scans);
  return { skills, warnings, copies };
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
  const previous = new Map(prev.skills.map((s) => [s.name, s]));
  const skills = await assemble(copies, input, previous);
  forgetTimedOut(input.scans);
  return { skills, warnings, copies };
}

const sameCopies = (a: readonly SkillCopy[], b: readonly SkillCopy[]) => a.length === b.length && a.every((c, i) => c === b[i]);

/**
 * Inventory, verdicts and gating of `copies`. A skill of `previous` whose winner and shadowed copies
 * are the very same objects is kept as it was (its inputs did not change).
 */
async function assemble(copies: SkillCopy[], input: BuildInput, previous: ReadonlyMap<string, CatalogSkill>): Promise<CatalogSkill[]> {
  const inventory = buildInventory(copies);
  const owners = keyOwners(inventory, input.keyOwners);
  const same = (e: InventoryEntry, old: CatalogSkill | undefined): old is CatalogSkill =>
    !!old && old.copy === e.winner && sameCopies(old.shadowed, e.shadowed) && old.keyOwner === owners.get(old.skillKey);
  const fresh = inventory.filter((e) => !same(e, previous.get(e.name)));
  const found = fresh.length ? await input.target.which(collectBins(fresh.map((e) => e.winner.parsed.manifest))) : {};
  const skills: CatalogSkill[] = [];
  for (const e of inventory) {
    const old = previous.get(e.name);
    skills.push(same(e, old) ? old : await gate(e, input, found, owners.get(e.winner.parsed.manifest.skillKey) ?? null));
  }
  return skills;
}

/**
 * Who owns each skillKey: the skill named like the key; else the owner of the previous build while
 * it still claims the key; else its only claimant. A key several skills claim with none of these
 * belongs to nobody: no skill gets config or secrets it may not be meant to have.
 */
function keyOwners(inventory: InventoryEntry[], previous: Map<string, string> | undefined): Map<string, string | null> {
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

function withoutKey(gating: GatingResult, key: string, owner: string | null): GatingResult {
  const reason = owner
    ? `skillKey "${key}" belongs to the skill ${owner}: this skill gets none of its config or secrets; give it a skillKey of its own`
    : `skillKey "${key}" is claimed by several skills and none is named after it: none gets its config or secrets; give each a skillKey of its own`;
  return { ...gating, eligible: false, reasons: [reason, ...gating.reasons] };
}

async function gate(e: InventoryEntry, input: BuildInput, found: Record<string, string | null>, keyOwner: string | null): Promise<CatalogSkill> {
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
    found,
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
