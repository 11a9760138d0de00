// Sandbox benchmarks on a real Docker engine with the offline busybox image:
// - the full check beside a same-run baseline of what `docker run --rm <image> true` plus one
//   `docker exec` cost through dockerode;
// - create-to-first-exec latency of a Docker sandbox.
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { enforcementProblem, NetworkEnforcer } from '../lib/network/docker/enforcer';
import { runFullCheck } from '../lib/sandbox/check/full-check';
import { CONFIG_LABEL } from '../lib/sandbox/config/in-use';
import { DockerBackend } from '../lib/sandbox/docker/backend';
import { networkCheckProbes } from '../lib/sandbox/network/check-probe';
import { localControl } from '../lib/sandbox/network/control';
import { dockerPing, setup, teardown } from '../scripts/test-env.mjs';
import { ensureBusyboxImage } from '../test/helpers/sandbox-images';
import { nowMs, percentile } from './common';

const BENCH_LABEL = 'io.skilldock.bench';

export interface SandboxBench {
  engine: string;
  image: string;
  runs: number;
  baseline: { medianMs: number; runMs: number; execMs: number; runsMs: number[] };
  check: { medianMs: number; runsMs: number[]; probesMs: Record<string, number> };
  ratio: number;
  /** The check of a config whose network Skilldock enforces, against the same baseline. */
  enforced: { medianMs: number; runsMs: number[]; probesMs: Record<string, number>; ratio: number } | { skipped: string };
  createToExec: { creates: number; p50Ms: number; p95Ms: number; maxMs: number };
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );

/** A Docker engine for the bench: DOCKER_HOST or the default socket, else the test harness's own dockerd. */
export async function engine(): Promise<{ host?: string; stop: () => Promise<void> } | { skip: string }> {
  const host = process.env.DOCKER_HOST || 'unix:///var/run/docker.sock';
  if (await dockerPing(host).catch(() => false)) return { host: process.env.DOCKER_HOST, stop: async () => {} };
  const state = await setup({ postgres: false, chromium: false, docker: true }).catch((e: Error) => ({ dockerError: e.message }));
  const started = (state as { env?: Record<string, string> }).env?.DOCKER_HOST;
  if (!started)
    return { skip: `no Docker engine answers at ${host} and none could be started (${(state as { dockerError?: string }).dockerError ?? 'unknown'})` };
  return { host: started, stop: async () => void ((state as { reused?: boolean }).reused || (await teardown(state))) };
}

/** `docker run --rm <image> true`: create, start, wait, remove. */
async function runTrue(docker: Docker, image: string): Promise<void> {
  const c = await docker.createContainer({ Image: image, Cmd: ['true'], Labels: { [BENCH_LABEL]: 'true' } });
  await c.start();
  await c.wait();
  await c.remove({ force: true, v: true });
}

/** One `docker exec` in a fresh container of the image: create, start, exec `true` to its end, remove. */
async function execOnce(docker: Docker, image: string): Promise<void> {
  const c = await docker.createContainer({
    Image: image,
    Entrypoint: ['sleep'],
    Cmd: ['infinity'],
    Labels: { [BENCH_LABEL]: 'true' },
    HostConfig: { Init: true },
  });
  await c.start();
  const exec = await c.exec({ Cmd: ['true'], AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  await new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', reject);
    stream.resume();
  });
  const r = await exec.inspect();
  if (r.ExitCode !== 0) throw new Error(`exec true exited ${r.ExitCode}`);
  await c.remove({ force: true, v: true });
}

/**
 * The same check on a config whose network Skilldock enforces: the sandbox joins its bridge network
 * (created by the first run, as a config's first sandbox does) and the network probe runs inside it.
 */
async function enforcedChecks(
  host: string | undefined,
  image: string,
  base: { image: string; labels: Record<string, string>; limits: { memoryMb: number; pids: number } },
  runs: number,
): Promise<{ medianMs: number; runsMs: number[]; probesMs: Record<string, number> } | { skipped: string }> {
  const problem = await enforcementProblem();
  if (problem) return { skipped: problem };
  const configId = `bench${randomBytes(4).toString('hex')}`;
  const enforcer = new NetworkEnforcer({ table: `skilldock_b${randomBytes(5).toString('hex')}`, proxyPort: 3129, dnsPort: 53, upstreams: ['127.0.0.1:9'] });
  try {
    const backend = new DockerBackend({ host, configId, network: 'bridge', enforcer });
    const spec = { ...base, image, network: 'bridge', labels: { ...base.labels, [CONFIG_LABEL]: configId } };
    const extraProbes = networkCheckProbes({ enforcer, control: localControl(enforcer), problem: null });
    const ms: number[] = [];
    const probes: Record<string, number[]> = {};
    for (let i = 0; i <= runs; i++) {
      const t0 = nowMs();
      const report = await runFullCheck({ backend: () => backend, spec, expected: spec.limits, extraProbes });
      if (!report.passed) throw new Error(`enforced full check failed: ${JSON.stringify(report.probes.filter((p) => p.status !== 'pass'))}`);
      if (i === 0) continue;
      ms.push(nowMs() - t0);
      for (const p of report.probes) (probes[p.name] ??= []).push(p.latencyMs);
    }
    return { medianMs: median(ms), runsMs: ms, probesMs: Object.fromEntries(Object.entries(probes).map(([k, v]) => [k, median(v)])) };
  } finally {
    await enforcer.close({ removeRules: true, removeNetworks: true });
  }
}

export async function sandboxesBench(runs: number, creates: number): Promise<SandboxBench | { skipped: string }> {
  const e = await engine();
  if ('skip' in e) return { skipped: e.skip };
  try {
    const backend = new DockerBackend({ host: e.host });
    const docker = backend.conn.api;
    const image = await ensureBusyboxImage(docker);
    const spec = { image, labels: { [BENCH_LABEL]: 'true' }, limits: { memoryMb: 128, pids: 100 } };

    const baseline = { runsMs: [] as number[], run: [] as number[], exec: [] as number[] };
    const check = { runsMs: [] as number[], probes: {} as Record<string, number[]> };
    // One warm-up of each, then alternate so drift on a loaded machine hits both sides alike.
    for (let i = 0; i <= runs; i++) {
      const t0 = nowMs();
      await runTrue(docker, image);
      const t1 = nowMs();
      await execOnce(docker, image);
      const t2 = nowMs();
      const report = await runFullCheck({ backend: () => backend, spec, expected: spec.limits });
      const t3 = nowMs();
      if (!report.passed) throw new Error(`full check failed: ${JSON.stringify(report.probes.filter((p) => p.status !== 'pass'))}`);
      if (i === 0) continue;
      baseline.run.push(t1 - t0);
      baseline.exec.push(t2 - t1);
      baseline.runsMs.push(t2 - t0);
      check.runsMs.push(t3 - t2);
      for (const p of report.probes) (check.probes[p.name] ??= []).push(p.latencyMs);
    }

    const firstExec: number[] = [];
    for (let i = 0; i < creates; i++) {
      const t0 = nowMs();
      const sb = await backend.create(spec);
      const r = await backend.exec(sb.id, { argv: ['true'], timeoutMs: 30_000, maxOutputBytes: 1024 });
      firstExec.push(nowMs() - t0);
      if (r.exitCode !== 0) throw new Error(`first exec exited ${r.exitCode}`);
      await backend.remove(sb.id);
    }
    const sorted = [...firstExec].sort((a, b) => a - b);
    const enforced = await enforcedChecks(e.host, image, spec, runs);

    const b = median(baseline.runsMs);
    const c = median(check.runsMs);
    return {
      engine: e.host ?? 'default socket',
      image,
      runs,
      baseline: { medianMs: b, runMs: median(baseline.run), execMs: median(baseline.exec), runsMs: baseline.runsMs },
      check: { medianMs: c, runsMs: check.runsMs, probesMs: Object.fromEntries(Object.entries(check.probes).map(([k, v]) => [k, median(v)])) },
      ratio: c / b,
      enforced: 'skipped' in enforced ? enforced : { ...enforced, ratio: enforced.medianMs / b },
      createToExec: { creates, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted[sorted.length - 1] },
    };
  } finally {
    await e.stop();
  }
}
