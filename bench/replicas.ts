// Several replicas on one PostgreSQL behind the tests' round-robin proxy (the production build):
// - the gateway's 304 poll and GET /api/v1/jobs at 50 connections through the proxy with 1, 2 and 3
//   replicas in the same run, with every server process's CPU time: requests per CPU-second of the
//   servers beside the raw requests per second;
// - how long a skill toggled through one replica takes to be served by the other (p50, p99);
// - enforcement takeover after SIGKILL of the lease holder: time until the survivor holds it, and
//   whether the table stayed in the kernel at every sample in between.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { type Cluster, OWNER_EMAIL, running, startCluster } from '../e2e/helpers/cluster';
import type { RunningServer } from '../e2e/helpers/server';
import { Client, login } from '../e2e/helpers/session';
import { readTable } from '../lib/network/docker/nft';
import { fmt, nowMs, percentile } from './common';
import { generateSkills } from './skills';

export interface ReplicaLoad {
  replicas: number;
  path: string;
  requestsPerSecond: number;
  cpuSeconds: number;
  requestsPerCpuSecond: number;
  p99: number;
  unexpected: number;
}

export interface ReplicasResult {
  load: ReplicaLoad[];
  propagation: { samples: number; p50: number; p99: number };
  takeover: { runs: number; ms: number[]; tableAlwaysPresent: boolean };
}

/** utime + stime of a process in seconds (Linux clock ticks are 1/100 s). */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function run(url: string, headers: Record<string, string>, seconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => autocannon({ url, headers, connections: 50, duration: seconds }, (e, r) => (e ? reject(e) : resolve(r))));
}

async function seed(cluster: Cluster, dir: string, jobs: number): Promise<{ owner: Client; token: string }> {
  const owner = await login(cluster.base, OWNER_EMAIL);
  const must = async (method: string, p: string, body: unknown, status: number) => {
    const r = await owner.req(method, p, body);
    if (r.status !== status) throw new Error(`${method} ${p} answered ${r.status}: ${JSON.stringify(r.json)}`);
    return r.json;
  };
  await must('PUT', '/api/v1/settings/skills', { workspaceDir: path.join(dir, 'ws') }, 200);
  await must('POST', '/api/v1/agents', { id: 'poller', name: 'Poller' }, 201);
  for (let i = 0; i < jobs; i++) await must('POST', '/api/v1/jobs', { kind: 'pipeline-selftest', params: { lines: 1 } }, 202);
  const { token } = await must('POST', '/api/v1/tokens', { name: 'gateway', permissions: ['agents.read', 'jobs.read'], expiresInDays: 1 }, 201);
  return { owner, token };
}

async function measure(cluster: Cluster, label: string, url: string, headers: Record<string, string>, ok: number, seconds: number): Promise<ReplicaLoad> {
  await run(url, headers, 2);
  const pids = cluster.replicas.filter(running).map((r) => r.proc.pid!);
  const before = pids.reduce((n, p) => n + cpuSeconds(p), 0);
  const r = await run(url, headers, seconds);
  const cpu = pids.reduce((n, p) => n + cpuSeconds(p), 0) - before;
  const served = r.statusCodeStats?.[String(ok) as `${number}`]?.count ?? 0;
  return {
    replicas: pids.length,
    path: label,
    requestsPerSecond: r.requests.average,
    cpuSeconds: cpu,
    requestsPerCpuSecond: served / cpu,
    p99: r.latency.p99,
    unexpected: r.requests.total - served + r.errors,
  };
}

async function loadFor(n: number, seconds: number): Promise<ReplicaLoad[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-bench-replicas-'));
  generateSkills(path.join(dir, 'ws', 'skills'), 100);
  // No worker: the seeded jobs stay queued, so the servers' CPU time is the requests' alone.
  const cluster = await startCluster({ replicas: n, adminUrl: process.env.BENCH_DATABASE_URL, env: { LOG_LEVEL: 'error', SKILLDOCK_WORKER: 'false' } });
  try {
    const { token } = await seed(cluster, dir, 200);
    const auth = { authorization: `Bearer ${token}` };
    const poll = `${cluster.base}/api/v1/agents/poller/skills`;
    const first = await fetch(poll, { headers: auth });
    if (first.status !== 200) throw new Error(`the gateway route answered ${first.status}`);
    const etag = first.headers.get('etag')!;
    return [
      await measure(cluster, '304 poll', poll, { ...auth, 'if-none-match': etag }, 304, seconds),
      await measure(cluster, 'GET /api/v1/jobs', `${cluster.base}/api/v1/jobs`, auth, 200, seconds),
    ];
  } finally {
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function propagation(cluster: Cluster, owner: Client, samples: number): Promise<ReplicasResult['propagation']> {
  const [a, b] = cluster.replicas.map((r) => new Client(r.base, owner.auth));
  const names = async () => ((await b!.req('GET', '/api/v1/agents/poller/skills')).json.skills as { name: string }[]).map((s) => s.name);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const enabled = i % 2 === 1;
    const t0 = nowMs();
    const r = await a!.req('PUT', '/api/v1/skills/entry', { skillKey: 'bench-skill-00001', enabled });
    if (r.status !== 200) throw new Error(`PUT /api/v1/skills/entry answered ${r.status}`);
    let seen = false;
    for (let k = 0; k < 2000 && !seen; k++) {
      seen = (await names()).includes('bench-skill-00001') === enabled;
      if (!seen) await new Promise((res) => setTimeout(res, 5));
    }
    if (!seen) throw new Error('the change never reached the other replica');
    times.push(nowMs() - t0);
  }
  times.sort((x, y) => x - y);
  return { samples, p50: percentile(times, 50), p99: percentile(times, 99) };
}

const holds = async (r: RunningServer, owner: Client) =>
  (((await new Client(r.base, owner.auth).req('GET', '/api/v1/instance')).json.networkEnforcement as string | null) ?? '').startsWith('Held by this replica');

async function takeover(cluster: Cluster, owner: Client, runs: number): Promise<ReplicasResult['takeover']> {
  const ms: number[] = [];
  let tableAlwaysPresent = true;
  for (let i = 0; i < runs; i++) {
    const live = cluster.replicas.filter(running);
    const flags = await Promise.all(live.map((r) => holds(r, owner)));
    const holder = live[flags.indexOf(true)];
    if (!holder) throw new Error('no replica holds the enforcement');
    const t0 = nowMs();
    await holder.kill9();
    cluster.drop(holder);
    let took = false;
    for (let k = 0; k < 1200 && !took; k++) {
      tableAlwaysPresent &&= (await readTable(cluster.table).catch(() => null)) !== null;
      took = (await Promise.all(cluster.replicas.filter(running).map((r) => holds(r, owner)))).some(Boolean);
      if (!took) await new Promise((res) => setTimeout(res, 50));
    }
    if (!took) throw new Error('no replica took the enforcement over');
    ms.push(nowMs() - t0);
    await cluster.addReplica();
  }
  return { runs, ms, tableAlwaysPresent };
}

export async function replicasBench(seconds: number, samples: number, takeovers: number): Promise<ReplicasResult> {
  const load: ReplicaLoad[] = [];
  for (const n of [1, 2, 3]) load.push(...(await loadFor(n, seconds)));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-bench-replicas-'));
  generateSkills(path.join(dir, 'ws', 'skills'), 100);
  const cluster = await startCluster({ replicas: 2, adminUrl: process.env.BENCH_DATABASE_URL, env: { LOG_LEVEL: 'error' } });
  try {
    const { owner } = await seed(cluster, dir, 0);
    return { load, propagation: await propagation(cluster, owner, samples), takeover: await takeover(cluster, owner, takeovers) };
  } finally {
    await cluster.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function describeReplicas(r: ReplicasResult): string[] {
  const lines: string[] = [];
  for (const p of ['304 poll', 'GET /api/v1/jobs']) {
    const rows = r.load.filter((l) => l.path === p);
    const one = rows.find((l) => l.replicas === 1)!;
    for (const l of rows)
      lines.push(
        `${p.padEnd(17)} ${l.replicas} replica(s): ${Math.round(l.requestsPerSecond).toLocaleString('en')} req/s, ${Math.round(l.requestsPerCpuSecond).toLocaleString('en')} req per server CPU-second (×${fmt(l.requestsPerCpuSecond / one.requestsPerCpuSecond, 2)} of one replica), p99 ${l.p99} ms, unexpected ${l.unexpected}`,
      );
  }
  lines.push(
    `change on one replica served by the other: p50 ${fmt(r.propagation.p50)} ms, p99 ${fmt(r.propagation.p99)} ms (${r.propagation.samples} toggles)`,
  );
  lines.push(
    `enforcement takeover after SIGKILL of the holder: ${r.takeover.ms.map((m) => `${fmt(m / 1000, 1)} s`).join(', ')}; table in the kernel at every sample: ${r.takeover.tableAlwaysPresent ? 'yes' : 'NO'}`,
  );
  return lines;
}
