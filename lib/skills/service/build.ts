/**
 * One catalog build, without a database: discover the roots (the scanner reading each file's bytes
 * as discovery hashes them), keep every copy of a name, gate the winners against the target. The
 * live catalog feeds it settings, entries and acknowledgements; the benchmark calls it as is. The
 * search index is built from `searchDocs` when the first query needs it, not on every build.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import { buildInventory, discoverSkills } from '../catalog';
import { collectBins, evaluateGating } from '../gating';
import { scanSkill } from '../scanner';
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
    return scanSkill(files, {
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

export async function buildCatalog(input: BuildInput): Promise<{ skills: CatalogSkill[]; warnings: RootWarning[] }> {
  const { copies, warnings } = await discoverSkills(input.roots, {
    ...input.discover,
    inspect: async (copy, contents) => {
      if (!input.scans.has(copy.contentHash)) input.scans.set(copy.contentHash, await scanSkillDir(copy.dir, copy.files, copy.parsed.manifest, contents));
    },
  });
  const inventory = buildInventory(copies);
  const found = await input.target.which(collectBins(inventory.map((e) => e.winner.parsed.manifest)));
  const skills: CatalogSkill[] = [];
  for (const e of inventory) {
    const copy = e.winner;
    const m = copy.parsed.manifest;
    let result = input.scans.get(copy.contentHash);
    if (!result) input.scans.set(copy.contentHash, (result = await scanSkillDir(copy.dir, copy.files, m)));
    const ack = input.acks.get(copy.contentHash) ?? null;
    const gating = evaluateGating({
      manifest: m,
      source: copy.source,
      entry: input.entries.get(m.skillKey),
      allowBundled: input.allowBundled,
      config: input.config,
      found,
      targetEnv: input.target.env,
      platform: input.target.platform,
    });
    skills.push({
      id: copy.id,
      name: e.name,
      skillKey: m.skillKey,
      copy,
      shadowed: e.shadowed,
      scan: result,
      ack,
      gating,
      status: statusOf(copy.parsed.valid, result, ack, gating),
    });
  }
  return { skills, warnings };
}
