// Effective skills of 100 agents over a catalog of 1,000 real skill folders (generated from the
// fixture corpus and built by the catalog's own buildCatalog): every agent from scratch
// (computeEffective, each agent evaluating every skill), the same with a cold EffectiveCache, and
// the cache brought up to date after one change — one SKILL.md edited (the watcher path's
// updateCatalog makes the new snapshot, timed apart), one allowlist edited, nothing changed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AgentInputs, computeEffective, type DefaultsInputs } from '../lib/agents/effective';
import { EffectiveCache } from '../lib/agents/effective-cache';
import type { HostTarget } from '../lib/agents/target';
import { CopyCache } from '../lib/skills/catalog';
import { createHostTarget } from '../lib/skills/gating';
import { type BuildInput, type BuiltCatalog, buildCatalog, updateCatalog } from '../lib/skills/service/build';
import type { CatalogSnapshot } from '../lib/skills/service/catalog';
import type { ScanResult } from '../lib/skills/types';
import { generateSkills } from './skills';

export interface Timing {
  medianMs: number;
  maxMs: number;
  runs: number;
}

export interface AgentsComputeResult {
  agents: number;
  skills: number;
  /** Agents by how their list reaches the edited skills: how many had a new version per edit (median). */
  changedPerEdit: number;
  scratch: Timing;
  cold: Timing;
  skillEdited: Timing & { catalogUpdateMs: number };
  allowlistEdited: Timing;
  nothingChanged: Timing;
  effectiveSkills: { min: number; median: number; max: number };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const timing = (xs: number[]): Timing => ({ medianMs: median(xs), maxMs: Math.max(...xs), runs: xs.length });

/** 100 agents as a gateway would have them: some inherit the defaults, most have lists of 20–300 names, a few deny some. */
export function benchAgents(names: string[], n: number): AgentInputs[] {
  let x = 12345;
  const r = () => (x = (x * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: n }, (_, i) => {
    const inherits = i % 10 === 0;
    const size = 20 + Math.floor(r() * 280);
    const list = inherits ? null : names.filter(() => r() < size / names.length);
    const deny = i % 7 === 0 ? names.filter(() => r() < 0.01) : [];
    return { id: `agent-${String(i).padStart(3, '0')}`, skills: list, denySkills: deny, budget: null };
  });
}

const snapshotOf = (built: BuiltCatalog, version: number): CatalogSnapshot => ({
  version,
  builtAt: new Date(),
  roots: [],
  warnings: built.warnings,
  skills: built.skills,
  target: { id: 'host', label: 'this host', platform: 'linux' },
});

export async function agentsCompute(nAgents: number, nSkills: number, runs: number): Promise<AgentsComputeResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-bench-agents-'));
  try {
    generateSkills(dir, nSkills);
    const input: BuildInput = {
      roots: [{ kind: 'workspace', path: dir, precedence: 0 } as BuildInput['roots'][number]],
      discover: { allowSymlinkTargets: [], maxCandidatesPerRoot: 100_000, maxSkillFileBytes: 256_000, groupDepth: 1 },
      config: {},
      entries: new Map(),
      acks: new Map(),
      target: createHostTarget({}),
      scans: new Map<string, ScanResult>(),
      cache: new CopyCache(),
    };
    let built = await buildCatalog(input);
    let version = 1;
    let snap = snapshotOf(built, version);
    const names = snap.skills.map((s) => s.name);
    const agents = benchAgents(names, nAgents);
    const defaults: DefaultsInputs = { skills: null, budget: null };
    const host: HostTarget = { kind: 'host', label: 'this host', home: os.homedir() };
    const all = (f: (a: AgentInputs) => { version: string }) => agents.map(f);

    const scratch: number[] = [];
    const cold: number[] = [];
    for (let r = 0; r <= runs; r++) {
      let t0 = performance.now();
      all((a) => computeEffective(snap, defaults, a, host));
      if (r) scratch.push(performance.now() - t0);
      const cache = new EffectiveCache();
      t0 = performance.now();
      all((a) => cache.effective(snap, defaults, a, host));
      if (r) cold.push(performance.now() - t0);
    }
    const cache = new EffectiveCache();
    let versions = all((a) => cache.effective(snap, defaults, a, host)).map((e) => e.version);
    const counts = agents.map((a) => cache.effective(snap, defaults, a, host).skills.length).sort((a, b) => a - b);

    const edited: number[] = [];
    const updates: number[] = [];
    const changed: number[] = [];
    const edits = Math.max(5, runs * 5);
    for (let r = 0; r <= edits; r++) {
      const s = snap.skills[(r * 97) % snap.skills.length];
      const md = path.join(s.copy.dir, 'SKILL.md');
      fs.writeFileSync(md, `${fs.readFileSync(md, 'utf8').replace(/\nEdited in run \d+\.\n$/, '')}\nEdited in run ${r}.\n`);
      let t0 = performance.now();
      built = (await updateCatalog(built, [md], input)) ?? (await buildCatalog(input, built));
      snap = snapshotOf(built, ++version);
      const catalogMs = performance.now() - t0;
      t0 = performance.now();
      const next = all((a) => cache.effective(snap, defaults, a, host)).map((e) => e.version);
      if (r) {
        edited.push(performance.now() - t0);
        updates.push(catalogMs);
        changed.push(next.filter((v, i) => v !== versions[i]).length);
      }
      versions = next;
    }

    const listEdits: number[] = [];
    for (let r = 0; r <= runs * 5; r++) {
      const a = agents[(r * 13) % agents.length];
      a.skills = names.filter((_, i) => (i + r) % 5 === 0);
      const t0 = performance.now();
      all((x) => cache.effective(snap, defaults, x, host));
      if (r) listEdits.push(performance.now() - t0);
    }

    const same: number[] = [];
    for (let r = 0; r <= runs * 5; r++) {
      const t0 = performance.now();
      all((a) => cache.effective(snap, defaults, a, host));
      if (r) same.push(performance.now() - t0);
    }
    // The kept answers are right: each equals a computation from scratch.
    for (const a of agents)
      if (cache.effective(snap, defaults, a, host).version !== computeEffective(snap, defaults, a, host).version)
        throw new Error(`agents bench: the cached answer of ${a.id} differs from a computation from scratch`);

    return {
      agents: nAgents,
      skills: snap.skills.length,
      changedPerEdit: median(changed),
      scratch: timing(scratch),
      cold: timing(cold),
      skillEdited: { ...timing(edited), catalogUpdateMs: median(updates) },
      allowlistEdited: timing(listEdits),
      nothingChanged: timing(same),
      effectiveSkills: { min: counts[0], median: median(counts), max: counts[counts.length - 1] },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
