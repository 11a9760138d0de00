// Listing 2,000 packages per manager. A temp runtime dir gets 2,000 pip distributions and 2,000 npm
// global packages replicated from real metadata on this machine (a real dist-info of the Python in
// PATH; real leaf package.json files from node_modules), renamed bench-pkg-0001… with distinct
// versions. Baselines in the same run: `python3 -m pip list --path <runtime pip dir>` and
// `npm ls -g --depth=0 --prefix <runtime npm prefix>`.
import { type ExecFileOptions, execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureRuntimeDir } from '../lib/runtime/dir';
import { npmList } from '../lib/runtime/managers/npm/npm';
import { pipList } from '../lib/runtime/managers/pip/pip';
import type { ManagerContext } from '../lib/runtime/types';
import { fmt, ROOT } from './common';

export interface ListSide {
  /** Median of `runs` timed runs, after one warm-up. */
  medianMs: number;
  runsMs: number[];
  count: number;
}

export interface ListComparison {
  packages: number;
  runs: number;
  skilldock: ListSide & { firstCallMs: number };
  baseline: ListSide & { command: string };
  /** baseline median / Skilldock median. */
  speedup: number;
}

export interface PackagesListResult {
  source: { pip: string; npm: string[] };
  pip: ListComparison;
  npm: ListComparison;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function run(file: string, args: string[], opts: ExecFileOptions): Promise<{ stdout: string; stderr: string; code: number }> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { ...opts, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 120_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as NodeJS.ErrnoException).code === 'number' ? Number((err as NodeJS.ErrnoException).code) : -1) : 0;
      if (err && code === -1) reject(new Error(`${file} ${args.join(' ')}: ${err.message}\n${stderr}`));
      else resolve({ stdout: String(stdout), stderr: String(stderr), code });
    });
  });
}

/** PATH/HOME/locale only: no npm_config_* from an outer `npm run`, no PIP_* beyond the version check switch. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: process.env.HOME ?? os.homedir(), LC_ALL: 'C.UTF-8' };
  return { ...env, ...extra } as NodeJS.ProcessEnv;
}

// ---------- pip side ----------

/** sha256=<urlsafe b64, no padding>,size — a RECORD row's hash and size (wheel spec). */
function recordHash(data: Buffer): string {
  return `sha256=${crypto.createHash('sha256').update(data).digest('base64url')},${data.length}`;
}

function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const PY_FIND = `
import importlib.metadata as m, json, os, sys
prefer = ["requests", "jsonpatch", "colorama", "blinker", "pip"]
def ok(d):
    p = getattr(d, "_path", None)
    return p is not None and str(p).endswith(".dist-info") and all(os.path.isfile(os.path.join(str(p), f)) for f in ("METADATA", "RECORD", "WHEEL"))
dists = [d for d in m.distributions() if ok(d)]
by = {d.metadata["Name"].lower(): d for d in dists}
pick = next((by[n] for n in prefer if n in by), dists[0] if dists else None)
print(json.dumps({"exe": sys.executable, "dist": str(pick._path) if pick else None}))
`;

/** A real installed dist-info of the PATH's python3, and that interpreter's real path (no shim in the timing). */
async function findPythonSource(): Promise<{ exe: string; distInfo: string }> {
  const r = await run('python3', ['-c', PY_FIND], { env: cleanEnv({}) });
  const j = JSON.parse(r.stdout) as { exe: string; dist: string | null };
  if (!j.dist) throw new Error('python3 has no installed .dist-info with METADATA, RECORD and WHEEL to replicate');
  return { exe: j.exe, distInfo: j.dist };
}

/** Replaces the Name and Version headers of a METADATA file (header block only). */
function rewriteMetadata(text: string, name: string, version: string): string {
  const end = text.search(/\r?\n\r?\n/);
  const head = end < 0 ? text : text.slice(0, end);
  const rest = end < 0 ? '' : text.slice(end);
  let sawName = false;
  let sawVersion = false;
  const lines = head.split('\n').map((l) => {
    if (!sawName && /^Name:/i.test(l)) {
      sawName = true;
      return `Name: ${name}`;
    }
    if (!sawVersion && /^Version:/i.test(l)) {
      sawVersion = true;
      return `Version: ${version}`;
    }
    return l;
  });
  if (!sawName || !sawVersion) throw new Error('source METADATA has no Name/Version header');
  return lines.join('\n') + rest;
}

function listFiles(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...listFiles(dir, r));
    else if (e.isFile()) out.push(r);
  }
  return out;
}

// Files of the source dist-info that describe code we do not copy, or that are rewritten.
const PIP_SKIP = new Set(['RECORD', 'REQUESTED', 'direct_url.json', 'entry_points.txt', 'top_level.txt', 'INSTALLER']);

/**
 * Writes `count` distributions into `target`: `bench_pkg_0001-1.1.0.dist-info` (wheel spec: the
 * name's `-` become `_`) holding the real METADATA (Name/Version rewritten), WHEEL and licence files,
 * INSTALLER, top_level.txt, plus a one-line module `bench_pkg_0001/__init__.py`; RECORD lists every
 * file with its sha256 and size, and itself without a hash.
 */
function writePipDistributions(target: string, sourceDistInfo: string, count: number): void {
  const files = listFiles(sourceDistInfo).filter((f) => !PIP_SKIP.has(f));
  const sourceMeta = fs.readFileSync(path.join(sourceDistInfo, 'METADATA'), 'utf8');
  const copied = files.filter((f) => f !== 'METADATA').map((f) => [f, fs.readFileSync(path.join(sourceDistInfo, f))] as const);
  for (let i = 1; i <= count; i++) {
    const n = String(i).padStart(4, '0');
    const name = `bench-pkg-${n}`;
    const module = `bench_pkg_${n}`;
    const version = `1.${i}.0`;
    const distInfo = `${module}-${version}.dist-info`;
    const contents: [string, Buffer][] = [
      [`${module}/__init__.py`, Buffer.from(`__version__ = "${version}"\n`)],
      [`${distInfo}/METADATA`, Buffer.from(rewriteMetadata(sourceMeta, name, version))],
      [`${distInfo}/INSTALLER`, Buffer.from('pip\n')],
      [`${distInfo}/top_level.txt`, Buffer.from(`${module}\n`)],
      ...copied.map(([f, b]) => [`${distInfo}/${f}`, b] as [string, Buffer]),
    ];
    const record = [...contents.map(([f, b]) => `${csvField(f)},${recordHash(b)}`), `${distInfo}/RECORD,,`].join('\n') + '\n';
    contents.push([`${distInfo}/RECORD`, Buffer.from(record)]);
    for (const [f, b] of contents) {
      fs.mkdirSync(path.dirname(path.join(target, f)), { recursive: true });
      fs.writeFileSync(path.join(target, f), b);
    }
  }
}

// ---------- npm side ----------

interface PackageJson {
  name?: string;
  version?: string;
  dependencies?: unknown;
  peerDependencies?: unknown;
  optionalDependencies?: unknown;
  bundleDependencies?: unknown;
  bundledDependencies?: unknown;
  workspaces?: unknown;
}

/**
 * Real package.json files from the repo's node_modules: leaf packages only (no dependencies of any
 * kind), so a package.json-only install is a complete one and `npm ls` reports no missing edges.
 */
function realLeafPackageJsons(limit: number): { name: string; json: PackageJson }[] {
  const modules = path.join(ROOT, 'node_modules');
  const names: string[] = [];
  for (const e of fs.readdirSync(modules).sort()) {
    if (e.startsWith('.')) continue;
    if (e.startsWith('@')) for (const s of fs.readdirSync(path.join(modules, e)).sort()) names.push(`${e}/${s}`);
    else names.push(e);
  }
  const out: { name: string; json: PackageJson }[] = [];
  for (const n of names) {
    let json: PackageJson;
    try {
      json = JSON.parse(fs.readFileSync(path.join(modules, n, 'package.json'), 'utf8')) as PackageJson;
    } catch {
      continue;
    }
    const empty = (v: unknown) => v === undefined || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);
    if (json.name !== n || typeof json.version !== 'string') continue;
    if (![json.dependencies, json.peerDependencies, json.optionalDependencies, json.bundleDependencies, json.bundledDependencies, json.workspaces].every(empty))
      continue;
    out.push({ name: n, json });
    if (out.length >= limit) break;
  }
  if (!out.length) throw new Error(`no leaf package.json found under ${modules}`);
  return out;
}

function writeNpmPackages(modulesDir: string, sources: { json: PackageJson }[], count: number): void {
  for (let i = 1; i <= count; i++) {
    const name = `bench-pkg-${String(i).padStart(4, '0')}`;
    const src = sources[(i - 1) % sources.length].json;
    const dir = path.join(modulesDir, name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...src, name, version: `1.${i}.0` }, null, 2) + '\n');
  }
}

// ---------- measuring ----------

async function timeRuns(runs: number, fn: () => Promise<number>, expected: number, label: string): Promise<ListSide> {
  const check = (n: number) => {
    if (n !== expected) throw new Error(`${label} saw ${n} packages, expected ${expected}`);
  };
  check(await fn()); // warm-up (page cache, pip's imports, Skilldock's one-time site-packages probe)
  const runsMs: number[] = [];
  let count = expected;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    count = await fn();
    runsMs.push(performance.now() - t0);
    check(count);
  }
  return { medianMs: median(runsMs), runsMs, count };
}

export async function packagesList(count = 2000, runs = 5): Promise<PackagesListResult> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-bench-pkgs-'));
  try {
    const layout = ensureRuntimeDir(root);
    const ctx: ManagerContext = { runtimeDir: root };
    const py = await findPythonSource();
    writePipDistributions(layout.pip, py.distInfo, count);
    const npmSources = realLeafPackageJsons(200);
    writeNpmPackages(layout.npmModules, npmSources, count);
    const isBench = (name: string) => /^bench-pkg-\d{4}$/.test(name);

    // pip: first check that pip itself sees exactly `count` distributions in the target.
    const pipEnv = cleanEnv({ PIP_DISABLE_PIP_VERSION_CHECK: '1', PYTHONDONTWRITEBYTECODE: '1' });
    const pipArgs = ['-m', 'pip', 'list', '--path', layout.pip, '--format', 'json'];
    const pipCount = async () => {
      const r = await run(py.exe, pipArgs, { env: pipEnv, cwd: root });
      if (r.code !== 0) throw new Error(`pip list failed (${r.code}): ${r.stderr.slice(0, 500)}`);
      const rows = JSON.parse(r.stdout) as { name: string; version: string }[];
      const stranger = rows.find((x) => !isBench(x.name));
      if (stranger) throw new Error(`pip list --path reported ${stranger.name}, which the bench did not create`);
      return rows.length;
    };
    const seen = await pipCount();
    if (seen !== count) throw new Error(`pip list --path sees ${seen} distributions in the bench target, expected ${count}`);

    const t0 = performance.now();
    const firstPip = (await pipList(ctx)).filter((p) => p.managed).length;
    const pipFirstMs = performance.now() - t0;
    if (firstPip !== count) throw new Error(`pipList saw ${firstPip} managed packages, expected ${count}`);
    const pipSkilldock = await timeRuns(runs, async () => (await pipList(ctx)).filter((p) => p.managed && isBench(p.name)).length, count, 'Skilldock pipList');
    const pipBaseline = await timeRuns(runs, pipCount, count, 'pip list');

    // npm: the npm next to this node (as Skilldock runs it), reading the runtime prefix.
    const npmBin = fs.existsSync(path.join(path.dirname(process.execPath), 'npm')) ? path.join(path.dirname(process.execPath), 'npm') : 'npm';
    const npmEnv = cleanEnv({
      npm_config_cache: path.join(root, 'npm-cache'),
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    });
    const npmArgs = ['ls', '-g', '--depth=0', '--json', '--prefix', layout.npmGlobal];
    const npmCount = async () => {
      const r = await run(npmBin, npmArgs, { env: npmEnv, cwd: root });
      const out = JSON.parse(r.stdout) as { dependencies?: Record<string, unknown>; problems?: string[] };
      if (r.code !== 0 || out.problems?.length)
        throw new Error(`npm ls failed (${r.code}): ${(out.problems ?? []).slice(0, 3).join('; ')} ${r.stderr.slice(0, 300)}`);
      const names = Object.keys(out.dependencies ?? {});
      const stranger = names.find((n) => !isBench(n));
      if (stranger) throw new Error(`npm ls -g reported ${stranger}, which the bench did not create`);
      return names.length;
    };
    const npmSeen = await npmCount();
    if (npmSeen !== count) throw new Error(`npm ls -g sees ${npmSeen} packages in the bench prefix, expected ${count}`);

    const t1 = performance.now();
    const firstNpm = (await npmList(ctx)).filter((p) => p.managed).length;
    const npmFirstMs = performance.now() - t1;
    if (firstNpm !== count) throw new Error(`npmList saw ${firstNpm} managed packages, expected ${count}`);
    const npmSkilldock = await timeRuns(runs, async () => (await npmList(ctx)).filter((p) => p.managed && isBench(p.name)).length, count, 'Skilldock npmList');
    const npmBaseline = await timeRuns(runs, npmCount, count, 'npm ls');

    return {
      source: { pip: py.distInfo, npm: npmSources.map((s) => s.name) },
      pip: {
        packages: count,
        runs,
        skilldock: { ...pipSkilldock, firstCallMs: pipFirstMs },
        baseline: { ...pipBaseline, command: `${py.exe} ${pipArgs.join(' ').replace(layout.pip, '<runtime>/pip')}` },
        speedup: pipBaseline.medianMs / pipSkilldock.medianMs,
      },
      npm: {
        packages: count,
        runs,
        skilldock: { ...npmSkilldock, firstCallMs: npmFirstMs },
        baseline: { ...npmBaseline, command: `npm ${npmArgs.join(' ').replace(layout.npmGlobal, '<runtime>/npm-global')}` },
        speedup: npmBaseline.medianMs / npmSkilldock.medianMs,
      },
    };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export function describeList(label: string, c: ListComparison & { skilldock: { firstCallMs: number } }, baselineLabel: string): string[] {
  return [
    `baseline (${baselineLabel}): ${fmt(c.baseline.medianMs, 0)} ms median of ${c.runs}, ${c.baseline.count.toLocaleString('en')} packages`,
    `skilldock (${label}): ${fmt(c.skilldock.medianMs, 1)} ms median of ${c.runs}, ${c.skilldock.count.toLocaleString('en')} packages (first call ${fmt(c.skilldock.firstCallMs, 0)} ms) (×${fmt(c.speedup, 1)} faster than baseline)`,
  ];
}
