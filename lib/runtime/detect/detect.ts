import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runProcess } from '../../core/process';
import { splitPathList, which } from '../../core/which';
import { DEFAULT_BINARIES } from '../../settings/runtime-settings';
import type { RuntimeLayout } from '../dir';
import { type BaseEnv, type RuntimeEnv, runtimeEnv, toolEnv } from '../env';
import type { SystemManager } from '../types';
import { detectLibc, machineArch, parseOsRelease, readTextFile } from './platform';
import { managerReadiness } from './readiness';

/** Runtime detection, as seen by skill processes on this host. */

export { DEFAULT_BINARIES };

const BINARY_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;
// Programs that print their version with another flag than --version.
const VERSION_ARGS: Record<string, string[]> = { ffprobe: ['-version'], ffmpeg: ['-version'], pdfinfo: ['-v'], pdftotext: ['-v'] };
// Keep version probes from phoning home.
const QUIET_ENV = { NPM_CONFIG_UPDATE_NOTIFIER: 'false', GH_NO_UPDATE_NOTIFIER: '1', DO_NOT_TRACK: '1' };

export type { BinaryStatus, ManagerReadiness, PythonStatus, RuntimeReport, SystemStatus } from '../report';

import type { BinaryStatus, PythonStatus, RuntimeReport, SystemStatus } from '../report';

export interface DetectOptions {
  layout: RuntimeLayout;
  /** Replaces DEFAULT_BINARIES. */
  binaries?: string[];
  /** Added to the list of binaries. */
  extraBinaries?: string[];
  /** Base environment (default process.env); the runtime env is applied on top. */
  env?: BaseEnv;
  /** Timeout of each binary's version probe, default 5 s. */
  timeoutMs?: number;
  /** Timeout of the python3, pip, npm and sudo probes, default 15 s (a cold pyenv shim or pip import can be slow). */
  runtimeTimeoutMs?: number;
}

interface Probe {
  ok: boolean;
  stdout: string;
  stderr: string;
  reason?: string;
}

async function probe(cmd: string, args: string[], env: RuntimeEnv, timeoutMs: number): Promise<Probe> {
  try {
    const r = await runProcess(cmd, args, { env, timeoutMs, maxOutputBytes: 64 * 1024, killGraceMs: 500 });
    if (r.timedOut) return { ok: false, stdout: r.stdout, stderr: r.stderr, reason: `timed out after ${timeoutMs} ms` };
    if (r.code !== 0) {
      const tail = (r.stderr || r.stdout).trim().split('\n').slice(-1)[0]?.slice(0, 200);
      return { ok: false, stdout: r.stdout, stderr: r.stderr, reason: `exited with ${r.code ?? r.signal}${tail ? `: ${tail}` : ''}` };
    }
    return { ok: true, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    return { ok: false, stdout: '', stderr: '', reason: e instanceof Error ? e.message : String(e) };
  }
}

const firstLine = (p: Probe) => (p.stdout.trim() || p.stderr.trim()).split('\n')[0]?.trim() ?? '';
const versionIn = (line: string) => /(?:^|\D)(\d+(?:\.\d+)+(?:[-+~][0-9A-Za-z.+~-]*)?)/.exec(line)?.[1];

/** `pip 24.0 from /usr/lib/python3/dist-packages/pip (python 3.11)`: the version and the package path. */
function pipVersionLine(stdout: string): { version: string; path: string } | null {
  for (const line of stdout.split('\n')) {
    const head = /^pip[ \t]+(\S+)[ \t]+from[ \t]/.exec(line);
    const tail = line.lastIndexOf(' (python');
    if (!head || tail < head[0].length) continue;
    const where = line.slice(head[0].length, tail).trim();
    if (where) return { version: head[1], path: where };
  }
  return null;
}

function isUnder(file: string, dir: string): boolean {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

async function detectBinary(name: string, ctx: Ctx): Promise<BinaryStatus> {
  if (!BINARY_NAME.test(name)) return { name: name.slice(0, 64), available: false, reason: 'not a valid program name' };
  const found = which(name, ctx.PATH);
  if (!found) return { name, available: false, reason: `${name} was not found on PATH (runtime dir and ${ctx.pathCount} host folders searched)` };
  const status: BinaryStatus = { name, available: true, path: found, managed: isUnder(found, ctx.layout.root) };
  const p = await probe(found, VERSION_ARGS[name] ?? ['--version'], ctx.quietEnv, ctx.timeoutMs);
  const line = firstLine(p);
  if (line && (p.ok || versionIn(line))) status.version = versionIn(line) ?? line.slice(0, 120);
  else status.reason = `version unknown: ${p.reason ?? 'no output'}`;
  return status;
}

interface Ctx {
  layout: RuntimeLayout;
  env: RuntimeEnv;
  quietEnv: RuntimeEnv;
  PATH: string;
  /** Skilldock's own tools (python3 and pip, npm, apt/apk, sudo) are found and run with the host's PATH only. */
  tool: RuntimeEnv;
  toolQuiet: RuntimeEnv;
  pathCount: number;
  timeoutMs: number;
  runtimeTimeoutMs: number;
}

async function detectPython(ctx: Ctx): Promise<{ python3: PythonStatus; pip: BinaryStatus }> {
  const found = which('python3', ctx.tool.PATH);
  if (!found) {
    return {
      python3: { name: 'python3', available: false, reason: 'python3 was not found on PATH' },
      pip: { name: 'pip', available: false, reason: 'pip needs python3, which was not found' },
    };
  }
  const [ver, info, pipVer] = await Promise.all([
    probe(found, ['--version'], ctx.tool, ctx.runtimeTimeoutMs),
    probe(found, ['-c', 'import sys,sysconfig;print(sys.executable);print(sysconfig.get_path("stdlib"))'], ctx.tool, ctx.runtimeTimeoutMs),
    probe(found, ['-m', 'pip', '--version'], ctx.toolQuiet, ctx.runtimeTimeoutMs),
  ]);
  const managed = isUnder(found, ctx.layout.root);
  const version = /Python\s+(\S+)/.exec(`${ver.stdout}\n${ver.stderr}`)?.[1];
  const python3: PythonStatus = { name: 'python3', available: ver.ok && !!version, path: found, managed };
  if (version) python3.version = version;
  else python3.reason = `python3 --version failed: ${ver.reason ?? 'unexpected output'}`;
  if (info.ok) {
    const [executable, stdlib] = info.stdout.trim().split('\n');
    if (executable) python3.executable = executable;
    if (stdlib) {
      python3.stdlib = stdlib;
      python3.externallyManaged = fs.existsSync(path.join(stdlib, 'EXTERNALLY-MANAGED'));
    }
  }
  const m = pipVersionLine(pipVer.stdout);
  const pip: BinaryStatus = m
    ? { name: 'pip', available: true, version: m.version, path: m.path, managed: isUnder(m.path, ctx.layout.root) }
    : { name: 'pip', available: false, reason: `python3 -m pip --version failed: ${pipVer.reason ?? 'unexpected output'}` };
  return { python3, pip };
}

async function detectNpm(ctx: Ctx): Promise<{ node: BinaryStatus; npm: BinaryStatus }> {
  const node: BinaryStatus = { name: 'node', available: true, path: process.execPath, version: process.versions.node, managed: false };
  if (!which('node', ctx.PATH)) node.reason = 'node runs Skilldock but is not on PATH, so skill processes cannot call it by name';
  const found = which('npm', ctx.tool.PATH);
  if (!found) return { node, npm: { name: 'npm', available: false, reason: 'npm was not found on PATH' } };
  const p = await probe(found, ['--version'], ctx.toolQuiet, ctx.runtimeTimeoutMs);
  const version = p.ok ? versionIn(firstLine(p)) : undefined;
  const npm: BinaryStatus = { name: 'npm', available: !!version, path: found, managed: isUnder(found, ctx.layout.root) };
  if (version) npm.version = version;
  else npm.reason = `npm --version failed: ${p.reason ?? 'unexpected output'}`;
  return { node, npm };
}

async function detectSystem(ctx: Ctx): Promise<SystemStatus> {
  const osRelease = parseOsRelease(readTextFile('/etc/os-release') ?? readTextFile('/usr/lib/os-release') ?? '');
  const alpine = readTextFile('/etc/alpine-release')?.trim();
  const apk = which('apk', ctx.tool.PATH);
  const apt = which('apt-get', ctx.tool.PATH);
  const manager: SystemManager | null = alpine !== undefined && apk ? 'apk' : apt ? 'apt' : apk ? 'apk' : null;
  const root = process.getuid?.() === 0;
  let sudo = false;
  const sudoPath = which('sudo', ctx.tool.PATH);
  if (sudoPath && !root) sudo = (await probe(sudoPath, ['-n', 'true'], ctx.tool, ctx.runtimeTimeoutMs)).ok;
  const status: SystemStatus = { manager, root, sudoInstalled: !!sudoPath, sudo };
  const mgrPath = manager === 'apk' ? apk : manager === 'apt' ? apt : null;
  if (mgrPath) status.path = mgrPath;
  if (osRelease.ID) status.osId = osRelease.ID;
  const osVersion = manager === 'apk' && alpine ? alpine : osRelease.VERSION_ID;
  if (osVersion) status.osVersion = osVersion;
  if (osRelease.PRETTY_NAME) status.osName = osRelease.PRETTY_NAME;
  return status;
}

export async function detectRuntimes(opts: DetectOptions): Promise<RuntimeReport> {
  const started = Date.now();
  const base = opts.env ?? process.env;
  const env = runtimeEnv(opts.layout, base);
  const tool = toolEnv(opts.layout, base);
  const ctx: Ctx = {
    layout: opts.layout,
    env,
    quietEnv: { ...env, ...QUIET_ENV },
    PATH: env.PATH,
    tool,
    toolQuiet: { ...tool, ...QUIET_ENV },
    pathCount: splitPathList(base.PATH).length,
    timeoutMs: opts.timeoutMs ?? 5000,
    runtimeTimeoutMs: opts.runtimeTimeoutMs ?? 15_000,
  };
  const names = [...new Set([...(opts.binaries ?? DEFAULT_BINARIES), ...(opts.extraBinaries ?? [])])];
  const [py, js, system, libc, binaries] = await Promise.all([
    detectPython(ctx),
    detectNpm(ctx),
    detectSystem(ctx),
    detectLibc({ env: tool, timeoutMs: ctx.runtimeTimeoutMs }),
    Promise.all(names.map((n) => detectBinary(n, ctx))),
  ]);
  const partial: Omit<RuntimeReport, 'managers'> = {
    where: 'host',
    hostname: os.hostname(),
    checkedAt: new Date(started).toISOString(),
    durationMs: 0,
    runtimeDir: opts.layout.root,
    runtimes: { ...py, ...js },
    system,
    platform: {
      os: process.platform,
      arch: machineArch(),
      libc: libc.libc,
      ...(libc.version ? { libcVersion: libc.version } : {}),
      ...(libc.interpreter ? { loader: libc.interpreter } : {}),
    },
    runtimeBin: { path: opts.layout.bin, exists: fs.existsSync(opts.layout.bin), onServicePath: splitPathList(base.PATH).includes(opts.layout.bin) },
    binaries,
  };
  const managers = managerReadiness(partial, opts.layout);
  return { ...partial, managers, durationMs: Date.now() - started };
}

export interface RuntimeCache {
  /** `binaries` replaces the cache's configured list for a detection this call starts. */
  get(layout: RuntimeLayout, binaries?: string[]): Promise<RuntimeReport>;
  /** Call after any install, uninstall or update. */
  invalidate(): void;
}

/** Caches one report per runtime dir for ttlMs; concurrent callers share one detection; failures are not cached. */
export function createRuntimeCache(
  ttlMs: number,
  opts: Omit<DetectOptions, 'layout'> & { detect?: (o: DetectOptions) => Promise<RuntimeReport>; now?: () => number } = {},
): RuntimeCache {
  const { detect = detectRuntimes, now = Date.now, ...detectOpts } = opts;
  const entries = new Map<string, { at: number; report: Promise<RuntimeReport> }>();
  return {
    get(layout, binaries) {
      const hit = entries.get(layout.root);
      if (hit && now() - hit.at < ttlMs) return hit.report;
      const entry = { at: now(), report: detect({ ...detectOpts, ...(binaries ? { binaries } : {}), layout }) };
      entries.set(layout.root, entry);
      entry.report.catch(() => {
        if (entries.get(layout.root) === entry) entries.delete(layout.root);
      });
      return entry.report;
    },
    invalidate() {
      entries.clear();
    },
  };
}
