// The cost of isolation on a real Docker engine with the offline busybox image, against the shared
// sandbox of before, in the same run:
// - exec round trip: an exec as it ran in the one shared sandbox (`timeout -s KILL` found in the
//   sandbox, no write tracking) beside an agent exec in its own sandbox now (under the control kit,
//   with the kit's clock read before and its change listing after);
// - create-to-first-exec: a new agent's own sandbox (create, start, kit exec) beside the exec it
//   replaces, in the shared sandbox that was already running.
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { startTracking, TRACKED_ROOTS } from '../lib/policy/exec/sessions';
import { DockerBackend } from '../lib/sandbox/docker/backend';
import { ensureBusyboxImage } from '../test/helpers/sandbox-images';
import { fmt, nowMs, percentile } from './common';
import { directExec } from './policy-exec';
import { engine } from './sandboxes';

const BENCH_LABEL = 'io.skilldock.bench';

export interface IsolationBench {
  runs: number;
  creates: number;
  shared: { p50Ms: number; p95Ms: number };
  own: { p50Ms: number; p95Ms: number };
  execRatio: number;
  createToFirstExec: { p50Ms: number; p95Ms: number };
  createRatio: number;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50Ms: percentile(s, 50), p95Ms: percentile(s, 95) };
};

/** The exec of before: dockerode straight to `timeout` in the sandbox's PATH, nothing tracked. */
const sharedExec = (docker: Docker, id: string) => directExec(docker, id, ['timeout', '-s', 'KILL', '60', 'sh', '-c', 'true']);

/** An agent exec now: the kit's clock, the command under the kit, the kit's change listing. */
async function ownExec(backend: DockerBackend, id: string): Promise<void> {
  const tracker = await startTracking(backend, id, [...TRACKED_ROOTS, '/workspace']);
  const r = await backend.exec(id, { argv: ['sh', '-c', 'true'], timeoutMs: 60_000, maxOutputBytes: 1 << 20 });
  if (r.exitCode !== 0) throw new Error(`own exec exited ${r.exitCode}: ${r.stderr}`);
  await tracker?.collect();
}

export async function isolationBench(runs: number, creates: number): Promise<IsolationBench | { skipped: string }> {
  const e = await engine();
  if ('skip' in e) return { skipped: e.skip };
  const label = { [BENCH_LABEL]: randomBytes(4).toString('hex') };
  const backend = new DockerBackend({ host: e.host });
  const docker = backend.conn.api;
  try {
    const image = await ensureBusyboxImage(docker);
    const spec = { image, labels: label, limits: { memoryMb: 128, pids: 100 } };
    const sandbox = (await backend.create(spec)).id;
    const shared: number[] = [];
    const own: number[] = [];
    // A warm-up of each, then alternating, so drift on a loaded machine hits both sides alike.
    for (let i = 0; i <= runs; i++) {
      const t0 = nowMs();
      await sharedExec(docker, sandbox);
      const t1 = nowMs();
      await ownExec(backend, sandbox);
      const t2 = nowMs();
      if (i === 0) continue;
      shared.push(t1 - t0);
      own.push(t2 - t1);
    }
    const created: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < creates; i++) {
      const t0 = nowMs();
      await sharedExec(docker, sandbox);
      const t1 = nowMs();
      const fresh = await backend.create(spec);
      await ownExec(backend, fresh.id);
      const t2 = nowMs();
      warm.push(t1 - t0);
      created.push(t2 - t1);
      await backend.remove(fresh.id);
    }
    const s = stats(shared);
    const o = stats(own);
    const c = stats(created);
    return { runs, creates, shared: s, own: o, execRatio: o.p50Ms / s.p50Ms, createToFirstExec: c, createRatio: c.p50Ms / stats(warm).p50Ms };
  } finally {
    for (const c of await docker.listContainers({ all: true, filters: { label: [`${BENCH_LABEL}=${label[BENCH_LABEL]}`] } }))
      await docker
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .catch(() => {});
    await e.stop();
  }
}

export function describeIsolation(b: IsolationBench | { skipped: string }): string[] {
  if ('skipped' in b) return [`skipped: ${b.skipped}`];
  return [
    `shared sandbox of before (exec under the sandbox's own \`timeout\`, nothing tracked; ${b.runs} runs): p50 ${fmt(b.shared.p50Ms)} ms, p95 ${fmt(b.shared.p95Ms)} ms`,
    `agent's own sandbox now (kit clock + exec under the kit + change listing): p50 ${fmt(b.own.p50Ms)} ms, p95 ${fmt(b.own.p95Ms)} ms`,
    `ratio: exec round trip ×${fmt(b.execRatio, 2)} of the shared sandbox's`,
    `create-to-first-exec of an agent's own sandbox (${b.creates} creates): p50 ${fmt(b.createToFirstExec.p50Ms, 0)} ms, p95 ${fmt(b.createToFirstExec.p95Ms, 0)} ms — ×${fmt(b.createRatio, 1)} of an exec in the running shared sandbox (paid once per agent and config)`,
  ];
}
