// Sandbox benchmarks on a real Docker engine with the offline busybox image:
// - the full check beside a same-run baseline of what `docker run --rm <image> true` plus one
//   `docker exec` cost through dockerode;
// - create-to-first-exec latency of a Docker sandbox.
import type Docker from 'dockerode';
import { runFullCheck } from '../lib/sandbox/check/full-check';
import { DockerBackend } from '../lib/sandbox/docker/backend';
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

    const b = median(baseline.runsMs);
    const c = median(check.runsMs);
    return {
      engine: e.host ?? 'default socket',
      image,
      runs,
      baseline: { medianMs: b, runMs: median(baseline.run), execMs: median(baseline.exec), runsMs: baseline.runsMs },
      check: { medianMs: c, runsMs: check.runsMs, probesMs: Object.fromEntries(Object.entries(check.probes).map(([k, v]) => [k, median(v)])) },
      ratio: c / b,
      createToExec: { creates, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted[sorted.length - 1] },
    };
  } finally {
    await e.stop();
  }
}
