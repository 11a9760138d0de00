#!/usr/bin/env node
// Test environment for `npm test`: a throwaway PostgreSQL cluster, a Docker engine and Chromium.
//
//   import { setup, teardown } from './test-env.mjs'
//   node scripts/test-env.mjs setup      # start (or reuse) an environment and keep it running
//   node scripts/test-env.mjs status     # print the recorded state and whether its parts answer
//   node scripts/test-env.mjs teardown   # stop what `setup` started and remove its files
//
// Rules: only processes this module started are ever signalled (by PID, after checking the PID's
// command line still names our environment directory); no network traffic leaves loopback.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const STATE_DIR = path.join(REPO, '.test-env');
export const STATE_FILE = path.join(STATE_DIR, 'state.json');
const ENV_PREFIX = 'skilldock-test-';
const CHROMIUM_PATH = '/usr/bin/chromium';
const SBIN_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

function log(...args) {
  if (process.env.SKILLDOCK_TEST_ENV_QUIET === '1') return;
  process.stderr.write(`[test-env] ${args.join(' ')}\n`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Children spawned by this process, so we can wait until they are reaped (no zombies left). */
const spawned = new Map();

function track(child) {
  spawned.set(child.pid, child);
  child.on('exit', () => setImmediate(() => spawned.delete(child.pid)));
  child.on('error', () => spawned.delete(child.pid));
  child.unref();
  return child;
}

/** Gone: not running, and reaped if it is our child. */
function isGone(pid) {
  return !isAlive(pid) && !spawned.has(pid);
}

// ---------------------------------------------------------------------------------------------
// Small process and file helpers

function which(cmd) {
  const dirs = `${process.env.PATH ?? ''}:${SBIN_PATH}`.split(':').filter(Boolean);
  for (const d of dirs) {
    const p = path.join(d, cmd);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      /* next */
    }
  }
  return undefined;
}

function cmdline(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return undefined;
  }
}

function isAlive(pid) {
  if (!pid || pid <= 1) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code !== 'EPERM') return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** True when `pid` is alive and its command line mentions `marker` (our env dir): guards against recycled PIDs. */
function isOurs(pid, marker) {
  if (!isAlive(pid)) return false;
  const c = cmdline(pid);
  return !!c && (!marker || c.includes(marker));
}

/** Signal a process we started, wait for it to go, escalate to SIGKILL. */
async function stopPid(pid, { marker, signal = 'SIGTERM', graceMs = 15000, name = 'process' } = {}) {
  if (!isOurs(pid, marker)) return false;
  try {
    process.kill(pid, signal);
  } catch {
    return false;
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (isGone(pid)) return true;
    await sleep(100);
  }
  if (isOurs(pid, marker)) {
    log(`${name} (pid ${pid}) ignored ${signal} for ${graceMs} ms: SIGKILL`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
    for (let i = 0; i < 50 && !isGone(pid); i++) await sleep(100);
  }
  return true;
}

/** PIDs whose command line mentions `marker` (e.g. containerd and shims started by our dockerd). */
function pidsMentioning(marker) {
  const out = [];
  for (const ent of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(ent)) continue;
    const pid = Number(ent);
    if (pid === process.pid) continue;
    const c = cmdline(pid);
    if (c?.includes(marker)) out.push(pid);
  }
  return out;
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts });
  return { code: r.status ?? (r.error ? 127 : 1), stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error };
}

/** Copy logs out of an environment dir (removed at teardown) into .test-env/logs; returns that dir. */
function keepLogs(dir, re) {
  const dest = path.join(STATE_DIR, 'logs');
  try {
    fs.mkdirSync(dest, { recursive: true });
    for (const f of fs.readdirSync(dir)) if (re.test(f)) fs.copyFileSync(path.join(dir, f), path.join(dest, f));
  } catch {
    /* best effort */
  }
  return dest;
}

function tail(file, lines = 15) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function writeJson(file, data) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n');
  fs.renameSync(tmp, file);
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function passwdEntry(name) {
  try {
    for (const line of fs.readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const f = line.split(':');
      if (f[0] === name) return { name, uid: Number(f[2]), gid: Number(f[3]), home: f[5] };
    }
  } catch {
    /* none */
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Debian packages

/** Highest /usr/lib/postgresql/<v>/bin that has initdb and postgres. */
export function findPgBinDir() {
  const base = '/usr/lib/postgresql';
  let versions = [];
  try {
    versions = fs.readdirSync(base).filter((v) => /^\d+(\.\d+)?$/.test(v));
  } catch {
    return undefined;
  }
  versions.sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = path.join(base, v, 'bin');
    if (fs.existsSync(path.join(bin, 'initdb')) && fs.existsSync(path.join(bin, 'postgres'))) return bin;
  }
  return undefined;
}

function missingPackages({ postgres = true, docker = true, chromium = true } = {}) {
  const missing = [];
  if (chromium && !fs.existsSync(CHROMIUM_PATH)) missing.push('chromium');
  if (docker && !which('dockerd')) missing.push('docker.io');
  if (docker && !which('iptables')) missing.push('iptables');
  // The sandbox tests' image is built offline from this static binary (test/helpers/sandbox-images.ts).
  if (docker && !fs.existsSync('/bin/busybox')) missing.push('busybox-static');
  // The Debian python3 test image is a rootfs mmdebstrap builds from Debian's archive, cached outside the repository.
  if (docker && !which('mmdebstrap')) missing.push('mmdebstrap');
  if (postgres && !findPgBinDir()) missing.push('postgresql');
  return missing;
}

let aptUpdated = false;

/** Install missing Debian packages (root only). Never starts services: policy-rc.d says no. */
async function ensurePackages(parts, state) {
  const missing = missingPackages(parts);
  if (missing.length === 0) return;
  if (!isRoot) {
    log(`missing Debian packages ${missing.join(' ')} (not root: cannot install them)`);
    state.missingPackages = missing;
    return;
  }
  const t0 = Date.now();
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive', PATH: SBIN_PATH };
  const aptLog = path.join(STATE_DIR, 'apt.log');
  fs.mkdirSync(STATE_DIR, { recursive: true });
  const policy = '/usr/sbin/policy-rc.d';
  let createdPolicy = false;
  if (!fs.existsSync(policy)) {
    fs.writeFileSync(policy, '#!/bin/sh\n# written by skilldock scripts/test-env.mjs during apt-get install\nexit 101\n', { mode: 0o755 });
    createdPolicy = true;
  }
  if (missing.includes('postgresql')) {
    // We only need the binaries: ask postgresql-common not to create (and start) a "main" cluster.
    const conf = '/etc/postgresql-common/createcluster.conf';
    if (!fs.existsSync(conf)) {
      fs.mkdirSync(path.dirname(conf), { recursive: true });
      fs.writeFileSync(conf, 'create_main_cluster = false\n');
    }
  }
  try {
    if (!aptUpdated) {
      log('apt-get update');
      const u = run('apt-get', ['update', '-q'], { env: aptEnv });
      fs.appendFileSync(aptLog, u.stdout + u.stderr);
      if (u.code !== 0) log(`apt-get update exited ${u.code} (continuing; see ${aptLog})`);
      aptUpdated = true;
    }
    log(`apt-get install ${missing.join(' ')}`);
    const r = run(
      'apt-get',
      ['install', '-y', '-q', '--no-install-recommends', '-o', 'Dpkg::Options::=--force-confold', '-o', 'Dpkg::Options::=--force-confdef', ...missing],
      { env: aptEnv },
    );
    fs.appendFileSync(aptLog, r.stdout + r.stderr);
    if (r.code !== 0) {
      log(`apt-get install failed (${r.code}):\n${tail(aptLog, 20)}`);
      state.missingPackages = missingPackages(parts);
    } else {
      state.installedPackages = missing;
    }
  } finally {
    if (createdPolicy) fs.rmSync(policy, { force: true });
  }
  state.timings.packagesMs = Date.now() - t0;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

function pgUser() {
  if (!isRoot) {
    const me = os.userInfo();
    return { name: me.username, uid: me.uid, gid: me.gid, home: me.homedir };
  }
  let u = passwdEntry('postgres') ?? passwdEntry('skilldock-test');
  if (!u) {
    const r = run('useradd', ['--system', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', 'skilldock-test'], {
      env: { ...process.env, PATH: SBIN_PATH },
    });
    if (r.code !== 0) throw new Error(`useradd skilldock-test failed: ${r.stderr.trim()}`);
    u = passwdEntry('skilldock-test');
    if (!u) throw new Error('useradd skilldock-test did not create the user');
  }
  return u;
}

async function pgReady(bin, port, user) {
  const r = run(path.join(bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port), '-U', user, '-d', 'postgres', '-t', '2']);
  return r.code === 0;
}

async function startPostgres(state) {
  const t0 = Date.now();
  const bin = findPgBinDir();
  if (!bin) throw new Error('no PostgreSQL server under /usr/lib/postgresql/*/bin (install the Debian package "postgresql")');
  const user = pgUser();
  const pgDir = path.join(state.envDir, 'pg');
  const dataDir = path.join(pgDir, 'data');
  const sockDir = path.join(pgDir, 'sock');
  const logFile = path.join(pgDir, 'postgres.log');
  fs.mkdirSync(sockDir, { recursive: true, mode: 0o700 });
  if (isRoot) {
    fs.chownSync(pgDir, user.uid, user.gid);
    fs.chownSync(sockDir, user.uid, user.gid);
  }
  const asUser = isRoot ? { uid: user.uid, gid: user.gid } : {};
  const childEnv = { PATH: `${bin}:${SBIN_PATH}`, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', HOME: pgDir, TZ: 'UTC' };

  let init = run(path.join(bin, 'initdb'), ['-D', dataDir, '-U', user.name, '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'], {
    ...asUser,
    env: childEnv,
    cwd: pgDir,
  });
  if (init.code !== 0 && /locale/i.test(init.stderr)) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    init = run(path.join(bin, 'initdb'), ['-D', dataDir, '-U', user.name, '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-sync'], {
      ...asUser,
      env: childEnv,
      cwd: pgDir,
    });
  }
  if (init.code !== 0) throw new Error(`initdb failed (${init.code}): ${(init.stderr || init.stdout).trim()}`);

  let lastErr = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    const port = await freePort();
    const logFd = fs.openSync(logFile, 'a');
    if (isRoot) fs.fchownSync(logFd, user.uid, user.gid);
    const child = spawn(
      path.join(bin, 'postgres'),
      [
        '-D',
        dataDir,
        '-h',
        '127.0.0.1',
        '-p',
        String(port),
        '-k',
        sockDir,
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=300',
        '-c',
        'shared_buffers=128MB',
        '-c',
        'logging_collector=off',
        '-c',
        'log_min_messages=warning',
        '-c',
        'TimeZone=UTC',
      ],
      { ...asUser, env: childEnv, cwd: pgDir, detached: true, stdio: ['ignore', logFd, logFd] },
    );
    fs.closeSync(logFd);
    track(child);
    state.postgres = { pid: child.pid, port, user: user.name, binDir: bin, dataDir, logFile };
    saveState(state);

    const deadline = Date.now() + 60000;
    let ready = false;
    while (Date.now() < deadline) {
      if (!isAlive(child.pid)) break;
      if (await pgReady(bin, port, user.name)) {
        ready = true;
        break;
      }
      await sleep(150);
    }
    if (ready) {
      const cr = run(path.join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', user.name, 'skilldock_test'], { env: childEnv });
      if (cr.code !== 0) throw new Error(`createdb skilldock_test failed: ${cr.stderr.trim()}`);
      const ver = run(path.join(bin, 'postgres'), ['--version']).stdout.trim();
      state.postgres.version = ver;
      state.env.DATABASE_URL_TEST = `postgres://${encodeURIComponent(user.name)}@127.0.0.1:${port}/skilldock_test`;
      state.timings.postgresMs = Date.now() - t0;
      log(`postgres ${ver.replace(/^.*\) /, '')} on 127.0.0.1:${port} (pid ${child.pid}) in ${Date.now() - t0} ms`);
      return;
    }
    lastErr = tail(logFile, 10);
    await stopPid(child.pid, { marker: dataDir, signal: 'SIGQUIT', graceMs: 5000, name: 'postgres' });
    state.postgres = undefined;
    if (!/could not bind|address already in use/i.test(lastErr)) break;
    log(`postgres port ${port} was taken, retrying`);
  }
  throw new Error(`postgres did not start (log: ${keepLogs(pgDir, /^postgres\.log$/)}/postgres.log):\n${lastErr}`);
}

async function stopPostgres(state) {
  const pg = state.postgres;
  if (!pg?.pid) return;
  // SIGQUIT = immediate shutdown of the postmaster and its backends (like `pg_ctl stop -m immediate`).
  const stopped = await stopPid(pg.pid, { marker: pg.dataDir, signal: 'SIGQUIT', graceMs: 10000, name: 'postgres' });
  if (stopped) log(`postgres (pid ${pg.pid}) stopped`);
  // Backends notice the postmaster's death on their own; make sure none lingers.
  for (const pid of pidsMentioning(pg.dataDir)) await stopPid(pid, { marker: pg.dataDir, signal: 'SIGKILL', graceMs: 2000 });
}

// ---------------------------------------------------------------------------------------------
// Docker

function parseDockerHost(host) {
  if (!host) return undefined;
  if (host.startsWith('unix://')) return { socketPath: host.slice('unix://'.length) };
  if (host.startsWith('/')) return { socketPath: host };
  const m = /^tcp:\/\/(\[[^\]]+\]|[^:/]+)(?::(\d+))?/.exec(host);
  if (m) return { hostname: m[1].replace(/^\[|\]$/g, ''), port: Number(m[2] ?? 2375) };
  return undefined;
}

function isLoopbackHost(h) {
  return h === 'localhost' || h === '::1' || /^127\./.test(h);
}

/** GET `p` from a Docker engine. Only unix sockets and loopback TCP are ever contacted. */
export function dockerGet(host, p, timeoutMs = 3000) {
  return new Promise((resolve) => {
    const t = parseDockerHost(host);
    if (!t || (t.hostname && !isLoopbackHost(t.hostname))) return resolve({ ok: false, error: `not probing non-local DOCKER_HOST ${host}` });
    const req = http.request({ ...t, path: p, method: 'GET', timeout: timeoutMs, headers: { Host: 'docker' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ ok: res.statusCode === 200, status: res.statusCode, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve({ ok: false, error: e.message }));
    req.end();
  });
}

export async function dockerPing(host, timeoutMs = 3000) {
  const r = await dockerGet(host, '/_ping', timeoutMs);
  return r.ok && r.body.trim() === 'OK';
}

async function dockerInfo(host) {
  const r = await dockerGet(host, '/info', 10000);
  if (!r.ok) return undefined;
  try {
    const i = JSON.parse(r.body);
    return { serverVersion: i.ServerVersion, driver: i.Driver, cgroupVersion: i.CgroupVersion, cgroupDriver: i.CgroupDriver, warnings: i.Warnings ?? [] };
  } catch {
    return undefined;
  }
}

// Tried in order; the first that answers /_ping wins. Found empirically (see report in the PR):
// the defaults (bridge + iptables) work in a root VM; the others cover sandboxes without
// netfilter or overlayfs.
const DOCKERD_ATTEMPTS = [
  { name: 'overlay2', flags: ['--storage-driver=overlay2'] },
  { name: 'overlay2, no iptables/bridge', flags: ['--storage-driver=overlay2', '--iptables=false', '--ip-masq=false', '--bridge=none'] },
  { name: 'vfs', flags: ['--storage-driver=vfs'] },
  { name: 'vfs, no iptables/bridge', flags: ['--storage-driver=vfs', '--iptables=false', '--ip-masq=false', '--bridge=none'] },
];

async function startDocker(state) {
  const t0 = Date.now();
  const candidates = [];
  if (process.env.DOCKER_HOST) candidates.push(process.env.DOCKER_HOST);
  candidates.push('unix:///var/run/docker.sock');
  for (const host of candidates) {
    if (await dockerPing(host)) {
      state.docker = { host, external: true, info: await dockerInfo(host) };
      state.env.DOCKER_HOST = host;
      state.timings.dockerMs = Date.now() - t0;
      log(`using the Docker engine at ${host}`);
      return;
    }
  }
  const dockerd = which('dockerd');
  if (!dockerd) return dockerFailed(state, 'dockerd is not installed (Debian package docker.io) and no engine answers at DOCKER_HOST or /var/run/docker.sock');
  if (!isRoot) return dockerFailed(state, 'no Docker engine answers and dockerd needs root to start one');

  const dir = path.join(state.envDir, 'docker');
  fs.mkdirSync(dir, { recursive: true, mode: 0o711 });
  const sock = path.join(dir, 'docker.sock');
  const host = `unix://${sock}`;
  const configFile = path.join(dir, 'daemon.json');
  fs.writeFileSync(configFile, '{}\n'); // ignore /etc/docker/daemon.json
  const failures = [];
  for (const attempt of DOCKERD_ATTEMPTS) {
    const tag = attempt.name.replace(/[^a-z0-9]+/gi, '-');
    const dataRoot = path.join(dir, `data-${tag}`);
    const execRoot = path.join(dir, `exec-${tag}`);
    const logFile = path.join(dir, `dockerd-${tag}.log`);
    const args = [
      `--host=${host}`,
      `--data-root=${dataRoot}`,
      `--exec-root=${execRoot}`,
      `--pidfile=${path.join(dir, 'docker.pid')}`,
      `--config-file=${configFile}`,
      ...attempt.flags,
    ];
    const logFd = fs.openSync(logFile, 'a');
    const child = spawn(dockerd, args, {
      env: { ...process.env, PATH: SBIN_PATH, DOCKER_HOST: '' },
      cwd: dir,
      detached: true,
      stdio: ['ignore', logFd, logFd],
    });
    fs.closeSync(logFd);
    track(child);
    state.docker = { host, external: false, pid: child.pid, dir, dataRoot, execRoot, logFile, flags: attempt.flags, attempt: attempt.name };
    saveState(state);
    const deadline = Date.now() + 60000;
    let up = false;
    while (Date.now() < deadline && isAlive(child.pid)) {
      if (await dockerPing(host, 1000)) {
        up = true;
        break;
      }
      await sleep(250);
    }
    if (up) {
      state.docker.info = await dockerInfo(host);
      state.docker.failedAttempts = failures;
      state.env.DOCKER_HOST = host;
      state.timings.dockerMs = Date.now() - t0;
      log(`dockerd (pid ${child.pid}, ${attempt.name}: ${attempt.flags.join(' ')}) answers at ${host} in ${Date.now() - t0} ms`);
      return;
    }
    const why = `${isAlive(child.pid) ? 'no answer to /_ping within 60 s' : 'exited'}: ${dockerdReason(logFile)}`;
    failures.push({ attempt: attempt.name, flags: attempt.flags, error: why });
    log(`dockerd attempt "${attempt.name}" failed: ${why}`);
    await stopDockerd(state);
    fs.rmSync(dataRoot, { recursive: true, force: true });
  }
  state.docker = { host: undefined, external: false, failedAttempts: failures };
  const logs = keepLogs(dir, /^dockerd-.*\.log$/);
  return dockerFailed(state, `dockerd could not start: ${failures.map((f) => `[${f.attempt}] ${f.error}`).join('; ')} (logs: ${logs})`);
}

/** The line of a dockerd log that says why it stopped (e.g. "failed to start daemon: ..."). */
function dockerdReason(logFile) {
  const lines = tail(logFile, 200).split('\n').filter(Boolean);
  const pick =
    lines.findLast((l) => /failed to start daemon|^Error|level=fatal/.test(l)) ??
    lines.findLast((l) => /level=error/.test(l)) ??
    lines.at(-1) ??
    'no log output';
  const msg = /msg="((?:[^"\\]|\\.)*)"/.exec(pick);
  return (msg ? msg[1].replace(/\\"/g, '"') : pick).slice(0, 500);
}

function dockerFailed(state, reason) {
  state.dockerError = reason;
  state.env.SKILLDOCK_TEST_DOCKER_ERROR = reason;
  log(`Docker unavailable: ${reason}`);
}

/** Unmount anything left mounted below `dir` (overlay layers, netns bind mounts), deepest first. */
function unmountBelow(dir) {
  let mounts = [];
  try {
    mounts = fs
      .readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .map((l) => l.split(' ')[4])
      .filter((m) => m && (m === dir || m.startsWith(dir + '/')))
      .map((m) => m.replace(/\\(\d{3})/g, (_, o) => String.fromCharCode(parseInt(o, 8))));
  } catch {
    return;
  }
  mounts.sort((a, b) => b.length - a.length);
  for (const m of mounts) run('umount', ['-l', m], { env: { PATH: SBIN_PATH } });
}

async function stopDockerd(state) {
  const d = state.docker;
  if (!d || d.external || !d.pid) return;
  // dockerd stops its containers (10 s grace) and its managed containerd on SIGTERM.
  const stopped = await stopPid(d.pid, { marker: d.dir, signal: 'SIGTERM', graceMs: 30000, name: 'dockerd' });
  if (stopped) log(`dockerd (pid ${d.pid}) stopped`);
  // containerd / shims it started, if dockerd died without stopping them.
  for (const pid of pidsMentioning(d.dir)) await stopPid(pid, { marker: d.dir, signal: 'SIGTERM', graceMs: 5000, name: 'containerd' });
  unmountBelow(d.dir);
  d.pid = undefined;
}

// ---------------------------------------------------------------------------------------------
// State

function saveState(state) {
  writeJson(path.join(state.envDir, 'state.json'), state);
  writeJson(STATE_FILE, state);
}

async function isHealthy(state) {
  if (!state?.envDir || !fs.existsSync(state.envDir)) return false;
  if (state.parts?.postgres) {
    if (!state.postgres?.pid || !isOurs(state.postgres.pid, state.postgres.dataDir)) return false;
    if (!(await pgReady(state.postgres.binDir, state.postgres.port, state.postgres.user))) return false;
  }
  if (state.parts?.docker && !state.dockerError) {
    if (!state.docker?.host || !(await dockerPing(state.docker.host))) return false;
  }
  return true;
}

/** Where environments live: os.tmpdir(), unless that is too long for unix socket paths (107 bytes). */
function envBase() {
  return os.tmpdir().length > 60 ? '/tmp' : os.tmpdir();
}

/** Remove environments left behind by runs that died without tearing down. */
async function cleanupStale() {
  const entries = [];
  for (const base of new Set([envBase(), os.tmpdir()])) {
    try {
      for (const e of fs.readdirSync(base)) if (e.startsWith(ENV_PREFIX)) entries.push(path.join(base, e));
    } catch {
      /* unreadable */
    }
  }
  for (const dir of entries) {
    const s = readJson(path.join(dir, 'state.json'));
    if (!s || s.envDir !== dir) continue;
    if (isAlive(s.ownerPid) && cmdline(s.ownerPid)?.includes('node')) continue; // a run in progress
    if (s.persistent && (await isHealthy(s))) continue; // kept on purpose by `test-env.mjs setup`
    log(`removing stale test environment ${dir}`);
    await teardown(s);
  }
}

/**
 * Start (or reuse) the test environment. Idempotent.
 * @param {{ postgres?: boolean, docker?: boolean, chromium?: boolean, persistent?: boolean, state?: object }} [opts]
 *   `state`: an object to fill in place, so a caller interrupted mid-setup can still tear down.
 */
export async function setup(opts = {}) {
  const parts = { postgres: opts.postgres ?? true, docker: opts.docker ?? true, chromium: opts.chromium ?? true };
  const t0 = Date.now();

  const previous = readJson(STATE_FILE);
  const reusable = previous?.persistent || previous?.ownerPid === process.pid; // kept on purpose, or ours already
  if (reusable && (await isHealthy(previous)) && (!parts.postgres || previous.parts?.postgres) && (!parts.docker || previous.parts?.docker)) {
    log(`reusing the running test environment ${previous.envDir}` + (previous.persistent ? ' (stop it with: node scripts/test-env.mjs teardown)' : ''));
    return Object.assign(opts.state ?? {}, previous, { reused: true });
  }
  await cleanupStale();

  const envDir = fs.mkdtempSync(path.join(envBase(), ENV_PREFIX));
  fs.chmodSync(envDir, 0o755); // the unprivileged postgres user must traverse it
  const state = Object.assign(opts.state ?? {}, {
    version: 1,
    id: crypto.randomBytes(4).toString('hex'),
    envDir,
    repo: REPO,
    ownerPid: process.pid,
    persistent: !!opts.persistent,
    reused: false,
    createdAt: new Date().toISOString(),
    parts,
    env: {},
    timings: {},
  });
  saveState(state);
  try {
    await ensurePackages(parts, state);
    if (parts.chromium) {
      if (fs.existsSync(CHROMIUM_PATH)) state.env.CHROMIUM_PATH = CHROMIUM_PATH;
      else state.chromiumError = `${CHROMIUM_PATH} is missing (Debian package chromium)`;
    }
    // Postgres and Docker start independently: do both at once.
    const tasks = [];
    if (parts.postgres) tasks.push(startPostgres(state));
    if (parts.docker) tasks.push(startDocker(state));
    const results = await Promise.allSettled(tasks);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    state.timings.setupMs = Date.now() - t0;
    saveState(state);
    log(`ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return state;
  } catch (e) {
    log(`setup failed: ${e.message}`);
    await teardown(state);
    throw e;
  }
}

/** Stop what setup() started and remove its files. Safe to call twice or on a partial state. */
export async function teardown(state) {
  state ??= readJson(STATE_FILE);
  if (!state?.envDir) return;
  const results = await Promise.allSettled([stopPostgres(state), stopDockerd(state)]);
  for (const r of results) if (r.status === 'rejected') log(`teardown: ${r.reason?.message ?? r.reason}`);
  unmountBelow(state.envDir);
  if (path.basename(state.envDir).startsWith(ENV_PREFIX)) fs.rmSync(state.envDir, { recursive: true, force: true, maxRetries: 3 });
  const current = readJson(STATE_FILE);
  if (current?.envDir === state.envDir) fs.rmSync(STATE_FILE, { force: true });
}

// ---------------------------------------------------------------------------------------------
// CLI

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cmd = process.argv[2] ?? 'status';
  try {
    if (cmd === 'setup') {
      const s = await setup({ persistent: true });
      process.stdout.write(JSON.stringify(s, null, 2) + '\n');
      for (const [k, v] of Object.entries(s.env)) process.stderr.write(`export ${k}='${v}'\n`);
    } else if (cmd === 'teardown') {
      await teardown();
    } else if (cmd === 'status') {
      const s = readJson(STATE_FILE);
      if (!s) {
        process.stdout.write('no test environment recorded\n');
      } else {
        process.stdout.write(JSON.stringify({ ...s, healthy: await isHealthy(s) }, null, 2) + '\n');
      }
    } else {
      process.stderr.write('usage: node scripts/test-env.mjs setup|status|teardown\n');
      process.exit(2);
    }
  } catch (e) {
    process.stderr.write(`${e.stack ?? e}\n`);
    process.exit(1);
  }
}
