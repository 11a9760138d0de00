// Scan and index 5,000 skill folders generated from the real fixture corpus, beside a plain read of
// the same files in the same run; then search latency over the 5,000. Each side runs in its own
// child process (bench/skills-child.ts) so its peak RSS is its own.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './common';

export interface SkillsSide {
  medianMs: number;
  runsMs: number[];
  files: number;
  bytes: number;
  maxRssMb: number;
}

export interface SkillsBenchResult {
  skills: number;
  runs: number;
  read: SkillsSide;
  index: SkillsSide & { ready: number; needsSetup: number; blocked: number; invalid: number; findings: number };
  /** With the root watcher running: builds where it vouched for the root (of `runs`). */
  rebuild: SkillsSide & { quietBuilds: number };
  /** The same without a watcher: the stat pass. */
  rebuildStat: SkillsSide;
  /** First build / plain read. */
  ratio: number;
  /** Rebuild with nothing changed (stat identities and verdicts kept, the watcher running) / plain read. */
  rebuildRatio: number;
  /** Rebuild with nothing changed, no watcher / plain read. */
  rebuildStatRatio: number;
  search: { indexMs: number } & SearchLatency;
  /** One skill's SKILL.md edited: that folder reloaded, rescanned, gated and re-indexed (the watcher path). */
  change: { changes: number; medianMs: number; maxMs: number; fullBuilds: number; search: SearchLatency };
}

export interface SearchLatency {
  queries: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  hitsPerQuery: number;
}

const CORPUS = path.join(ROOT, 'test/fixtures/skills-real');

/** Copies the corpus round-robin into `n` folders named bench-skill-00001…, each SKILL.md renamed to match. */
export function generateSkills(dir: string, n: number): void {
  const sources = fs
    .readdirSync(CORPUS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      fs
        .readdirSync(path.join(CORPUS, d.name), { withFileTypes: true })
        .filter((s) => s.isDirectory())
        .map((s) => path.join(CORPUS, d.name, s.name)),
    )
    .filter((p) => fs.existsSync(path.join(p, 'SKILL.md')))
    .sort();
  for (let i = 0; i < n; i++) {
    const src = sources[i % sources.length];
    const name = `bench-skill-${String(i + 1).padStart(5, '0')}`;
    // one grouping level, 50 skills per group, as a big workspace would have
    const dest = path.join(dir, `group-${String(Math.floor(i / 50)).padStart(3, '0')}`, name);
    fs.cpSync(src, dest, { recursive: true });
    const md = path.join(dest, 'SKILL.md');
    fs.writeFileSync(md, fs.readFileSync(md, 'utf8').replace(/^name:.*$/m, `name: ${name}`));
  }
}

function child(mode: 'read' | 'index' | 'rebuild' | 'rebuild-stat' | 'search' | 'change', dir: string, runs: number): Record<string, unknown> {
  const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/skills-child.ts'), mode, dir, String(runs)], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>;
}

export async function skillsBench(n: number, runs: number): Promise<SkillsBenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-bench-skills-'));
  try {
    generateSkills(dir, n);
    const read = child('read', dir, runs) as unknown as SkillsSide;
    const index = child('index', dir, runs) as unknown as SkillsBenchResult['index'];
    const rebuild = child('rebuild', dir, runs) as unknown as SkillsBenchResult['rebuild'];
    const rebuildStat = child('rebuild-stat', dir, runs) as unknown as SkillsSide;
    const search = child('search', dir, runs) as unknown as SkillsBenchResult['search'];
    const change = child('change', dir, runs) as unknown as SkillsBenchResult['change'];
    return {
      skills: n,
      runs,
      read,
      index,
      rebuild,
      rebuildStat,
      ratio: index.medianMs / read.medianMs,
      rebuildRatio: rebuild.medianMs / read.medianMs,
      rebuildStatRatio: rebuildStat.medianMs / read.medianMs,
      search,
      change,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
