// The gateway exec's round trip for `true` (POST /api/v1/agents/{id}/exec through the route handler
// with an agent-scoped API token: authenticate, decide with the agent's rules, run in its Docker
// sandbox, exec_log row + audit) beside a direct dockerode exec of `true` in the same container —
// the baseline measured in the same run.
import Docker from 'dockerode';
import { createAgent } from '../lib/agents/store';
import { ops } from '../lib/api/operations';
import { createToken } from '../lib/auth/tokens';
import { route } from '../lib/http/route';
import { setServices } from '../lib/services';
import { apiUser } from '../test/helpers/api';
import { dockerUnavailable } from '../test/helpers/docker';
import { installActor } from '../test/helpers/install-jobs';
import { ensureBusyboxImage } from '../test/helpers/sandbox-images';
import { fmt, nowMs } from './common';
import { startBenchKit } from './installs-kit';

export interface ExecBench {
  runs: number;
  direct: { p50Ms: number; p95Ms: number };
  gateway: { p50Ms: number; p95Ms: number };
  ratio: number;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** One dockerode exec of `argv` in a running container, output drained, exit code checked. */
export async function directExec(docker: Docker, containerId: string, argv: string[] = ['true']): Promise<void> {
  const ex = await docker.getContainer(containerId).exec({ Cmd: argv, AttachStdout: true, AttachStderr: true });
  const stream = await ex.start({});
  await new Promise((r) => {
    stream.on('end', r);
    stream.resume();
  });
  const info = await ex.inspect();
  if (info.ExitCode !== 0) throw new Error(`direct exec exited ${info.ExitCode}`);
}

export async function policyExecBench(runs: number): Promise<ExecBench | { skipped: string }> {
  if (dockerUnavailable) return { skipped: dockerUnavailable };
  const docker = new Docker();
  const image = await ensureBusyboxImage(docker);
  const kit = await startBenchKit(docker);
  try {
    setServices(Promise.resolve(kit.services));
    const configId = await kit.newConfig('exec-bench', { image });
    await createAgent({ db: kit.services.database.db, knownSkills: async () => new Set() }, installActor, {
      id: 'bench-exec',
      name: 'Bench',
      sandboxConfigId: configId,
    });
    const { actor } = await apiUser(kit.services, { email: 'bench-exec@example.com', role: 'admin', tokenName: 'x', permissions: ['agents.read'] });
    const { token } = await createToken(kit.services.database.db, actor, {
      name: 'gw',
      permissions: ['agents.read', 'agents.exec'],
      expiresInDays: 1,
      agentIds: ['bench-exec'],
    });
    const handler = route(ops.agentExec);
    const gateway = async () => {
      const res = await handler(
        new Request('http://localhost/api/v1/agents/bench-exec/exec', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ command: 'true' }),
        }),
        { params: Promise.resolve({ id: 'bench-exec' }) },
      );
      const body = (await res.json()) as { outcome: string; exitCode: number; sandboxId: string };
      if (res.status !== 200 || body.outcome !== 'ran' || body.exitCode !== 0) throw new Error(`gateway exec answered ${res.status}: ${JSON.stringify(body)}`);
      return body.sandboxId;
    };
    // Warm-up: starts the sandbox, loads the engine, fills the connection pools.
    const sandboxId = await gateway();
    const containerId = sandboxId.split('~')[1];
    for (let i = 0; i < 3; i++) await directExec(docker, containerId);
    const direct: number[] = [];
    const viaGateway: number[] = [];
    // Interleaved, so both see the same engine load.
    for (let i = 0; i < runs; i++) {
      let t = nowMs();
      await directExec(docker, containerId);
      direct.push(nowMs() - t);
      t = nowMs();
      await gateway();
      viaGateway.push(nowMs() - t);
    }
    const d = { p50Ms: pct(direct, 50), p95Ms: pct(direct, 95) };
    const g = { p50Ms: pct(viaGateway, 50), p95Ms: pct(viaGateway, 95) };
    return { runs, direct: d, gateway: g, ratio: g.p50Ms / d.p50Ms };
  } finally {
    await kit.stop();
  }
}

export function describeExecBench(b: ExecBench | { skipped: string }): string[] {
  if ('skipped' in b) return [`skipped: ${b.skipped}`];
  return [
    `baseline (dockerode exec of \`true\` in the same container): p50 ${fmt(b.direct.p50Ms, 1)} ms, p95 ${fmt(b.direct.p95Ms, 1)} ms`,
    `gateway exec (POST /api/v1/agents/{id}/exec of \`true\`: token, decision, sandbox, exec_log + audit): p50 ${fmt(b.gateway.p50Ms, 1)} ms, p95 ${fmt(b.gateway.p95Ms, 1)} ms`,
    `ratio: gateway exec ×${fmt(b.ratio, 2)} of the direct exec (p50, ${b.runs} runs each, interleaved)`,
  ];
}
