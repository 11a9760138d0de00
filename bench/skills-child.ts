// One side of the skills benchmark, in its own process: `read` (a plain read of every file),
// `index` (the catalog's first build: discovery + hash + parse + security scan of every file + gating),
// `rebuild` (a later build with nothing changed: stat identities and scanner verdicts kept from the
// previous build, with the root watcher running as in the live catalog: it vouches for the files it
// saw no event under), `rebuild-stat` (the same without a watcher: one stat per file and folder),
// `search` (building the BM25 index, then queries over it),
// or `change` (one skill's SKILL.md edited, that skill reloaded and re-indexed as the watcher path
// does, then queries right after). Prints one JSON line.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { CopyCache, type WatchMark, watchSkillRoots } from '../lib/skills/catalog';
import { createHostTarget } from '../lib/skills/gating';
import { forgetFileScans } from '../lib/skills/scanner';
import { createSkillSearch, type SkillSearch } from '../lib/skills/search';
import { type BuildInput, type BuiltCatalog, buildCatalog, searchDocs, updateCatalog } from '../lib/skills/service/build';
import type { ScanResult } from '../lib/skills/types';

const [mode, dir, runsArg] = process.argv.slice(2);
const runs = Number(runsArg);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const CONCURRENCY = 16;

async function pool<T>(items: T[], fn: (x: T) => Promise<void>) {
  let i = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (i < items.length) await fn(items[i++]);
    }),
  );
}

async function walk(d: string, out: string[]) {
  for (const e of await fsp.readdir(d, { withFileTypes: true })) {
    const p = path.join(d, e.name);
    if (e.isDirectory()) await walk(p, out);
    else out.push(p);
  }
}

/** Baseline: list every file and read it whole, with the same concurrency. */
async function plainRead() {
  const files: string[] = [];
  await walk(dir, files);
  let bytes = 0;
  await pool(files, async (f) => {
    const buf = await fsp.readFile(f);
    bytes += buf.length;
  });
  return { files: files.length, bytes };
}

const root = { kind: 'workspace' as const, path: dir, precedence: 0 };
const opts = { allowSymlinkTargets: [], maxCandidatesPerRoot: 100_000, maxSkillFileBytes: 256_000, groupDepth: 1 };

const target = createHostTarget({});
const inputOf = (scans: Map<string, ScanResult>, cache?: CopyCache, quietRoots?: ReadonlySet<string>): BuildInput => ({
  roots: [root],
  discover: opts,
  config: {},
  entries: new Map(),
  acks: new Map(),
  target,
  scans,
  cache,
  quietRoots,
});

/** The catalog's own build (discover + hash + parse + scan every file + gate + index), minus the database reads. */
async function index(scans = new Map<string, ScanResult>(), cache?: CopyCache, previous?: BuiltCatalog, quietRoots?: ReadonlySet<string>) {
  const built = await buildCatalog(inputOf(scans, cache, quietRoots), previous);
  const { skills } = built;
  const counts = { ready: 0, needsSetup: 0, blocked: 0, invalid: 0, disabled: 0, findings: 0, files: 0, bytes: 0 };
  for (const s of skills) {
    counts.findings += s.scan.findings.length;
    counts.files += s.copy.files.length;
    counts.bytes += s.copy.files.reduce((n, f) => n + f.size, 0);
    if (s.status === 'needs-setup') counts.needsSetup++;
    else counts[s.status]++;
  }
  return { counts, skills, built };
}

function queriesOf(docs: ReturnType<typeof searchDocs>): string[] {
  const words = new Set<string>();
  for (const d of docs.slice(0, 400)) for (const w of `${d.description}`.toLowerCase().match(/[a-z]{5,}/g) ?? []) words.add(w);
  const base = [...words].slice(0, 300);
  // whole words, prefixes and one-letter typos, as people type them
  return base.flatMap((w) => [w, w.slice(0, 4), w.slice(0, 2) + w[3] + w[2] + w.slice(4)]);
}

function latencies(search: SkillSearch, queries: string[]) {
  const lat: number[] = [];
  let hits = 0;
  for (const q of queries) {
    const t0 = performance.now();
    hits += search.search(q, undefined, 20).length;
    lat.push(performance.now() - t0);
  }
  lat.sort((a, b) => a - b);
  return {
    queries: queries.length,
    p50Ms: lat[Math.floor(lat.length * 0.5)],
    p99Ms: lat[Math.floor(lat.length * 0.99)],
    maxMs: lat[lat.length - 1],
    hitsPerQuery: hits / queries.length,
  };
}

if (mode === 'read' || mode === 'index' || mode === 'rebuild' || mode === 'rebuild-stat') {
  const times: number[] = [];
  let last: Record<string, number> = {};
  // `rebuild`: the scanner's verdicts, stat identities and the previous build are kept from the
  // warm-up on, as in the live catalog after its first build (a watcher change rescans only what changed).
  const memo = new Map<string, ScanResult>();
  const cache = new CopyCache();
  let previous: BuiltCatalog | undefined;
  // The live catalog's watcher (settings `watch`, on by default); its initial scan is not timed.
  const watcher = mode === 'rebuild' ? watchSkillRoots([dir], { debounceMs: 250, onChange: () => undefined }) : null;
  await watcher?.ready;
  let mark: WatchMark | null = null;
  let quietBuilds = 0;
  for (let r = 0; r <= runs; r++) {
    // A first build starts with nothing scanned: the scanner's workers drop the file scans kept from the run before.
    if (mode === 'index') forgetFileScans();
    const t0 = performance.now();
    if (mode === 'read') last = await plainRead();
    else if (mode === 'rebuild' || mode === 'rebuild-stat') {
      await watcher?.settle();
      const quiet = !!watcher?.quietSince(mark);
      mark = watcher?.mark() ?? null;
      if (quiet && r > 0) quietBuilds++;
      const out = await index(memo, cache, previous, quiet ? new Set([dir]) : undefined);
      previous = out.built;
      last = out.counts;
    } else last = (await index()).counts;
    if (r > 0) times.push(performance.now() - t0); // run 0 warms the page cache and the JIT
  }
  await watcher?.close();
  const maxRssMb = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify({ medianMs: median(times), runsMs: times, maxRssMb, ...last, ...(watcher ? { quietBuilds } : {}) }));
} else if (mode === 'search') {
  const { skills } = await index();
  const docs = searchDocs(skills);
  const search = createSkillSearch();
  const t0 = performance.now();
  search.replaceAll(docs);
  const indexMs = performance.now() - t0;
  console.log(JSON.stringify({ indexMs, ...latencies(search, queriesOf(docs)) }));
} else {
  // `change`: the live catalog's watcher path, one skill at a time, `runs` × 5 edits over 5 skills.
  const scans = new Map<string, ScanResult>();
  const input = inputOf(scans, new CopyCache());
  let built = await buildCatalog(input);
  const search = createSkillSearch();
  await search.sync(searchDocs(built.skills));
  const queries = queriesOf(searchDocs(built.skills));
  const picks = built.skills.filter((_, i) => i % Math.max(1, Math.floor(built.skills.length / 5)) === 0).slice(0, 5);
  const times: number[] = [];
  let full = 0;
  for (let r = 0; r < Math.max(1, runs) * 5; r++) {
    const md = path.join(picks[r % picks.length].copy.dir, 'SKILL.md');
    const text = `${fs.readFileSync(md, 'utf8').replace(/\nEdited in run \d+\.\n$/, '')}\nEdited in run ${r}.\n`;
    fs.writeFileSync(md, text);
    const t0 = performance.now();
    let next = await updateCatalog(built, [md], input);
    if (!next) {
      full++;
      next = await buildCatalog(input);
    }
    await search.sync(searchDocs(next.skills));
    times.push(performance.now() - t0);
    built = next;
  }
  times.sort((a, b) => a - b);
  console.log(
    JSON.stringify({ changes: times.length, medianMs: median(times), maxMs: times[times.length - 1], fullBuilds: full, search: latencies(search, queries) }),
  );
}
