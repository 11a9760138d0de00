// The gateway's poll, GET /api/v1/agents/{id}/skills with a matching If-None-Match and an API
// token, under 50 connections (autocannon), beside the API benchmark's trivial route (/api/ping) in
// the same run against the production server: 1,000 generated skills in the workspace root, 100
// agents, the polled agent inheriting the (unrestricted) defaults.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { benchAgents } from './agents-compute';
import type { LoadResult } from './api-load';
import { login, startServer } from './common';
import { generateSkills } from './skills';

export interface AgentsGatewayResult {
  skills: number;
  agents: number;
  trivial: LoadResult & { timeouts: number };
  notModified: LoadResult & { timeouts: number };
  /** The same poll without If-None-Match (the body sent every time). */
  full: LoadResult & { timeouts: number };
  promptChars: number;
}

function run(url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections, duration: seconds }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

const toResult = (p: string, r: autocannon.Result, ok: number): LoadResult & { timeouts: number } => ({
  path: p,
  requestsPerSecond: r.requests.average,
  p50: r.latency.p50,
  p99: r.latency.p99,
  errors: r.errors,
  timeouts: r.timeouts,
  // autocannon counts a 304 as non-2xx: count what was not the expected status instead.
  non2xx: r.requests.total - (r.statusCodeStats?.[String(ok) as `${number}`]?.count ?? 0),
});

/**
 * `nSkills` generated skills in a workspace root under `dir`, `nAgents` agents over them
 * (agent-000 inherits the unrestricted defaults), and an agents.read API token for the gateway.
 */
export async function seedGatewayAgents(base: string, dir: string, nSkills: number, nAgents: number): Promise<string> {
  generateSkills(path.join(dir, 'ws', 'skills'), nSkills);
  const cookie = await login(base);
  const write = async (method: string, p: string, body: unknown, expect: number) => {
    const r = await fetch(`${base}${p}`, {
      method,
      headers: { cookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (r.status !== expect) throw new Error(`${method} ${p} answered ${r.status}: ${await r.text()}`);
    return r.json() as Promise<Record<string, unknown>>;
  };
  await write('PUT', '/api/v1/settings/skills', { workspaceDir: path.join(dir, 'ws') }, 200);
  await write('POST', '/api/v1/skills/refresh', {}, 200);
  const names = Array.from({ length: nSkills }, (_, i) => `bench-skill-${String(i + 1).padStart(5, '0')}`);
  for (const a of benchAgents(names, nAgents)) await write('POST', '/api/v1/agents', { id: a.id, name: a.id, skills: a.skills, denySkills: a.denySkills }, 201);
  const { token } = (await write('POST', '/api/v1/tokens', { name: 'gateway', permissions: ['agents.read'], expiresInDays: 1 }, 201)) as { token: string };
  return token;
}

export async function agentsGateway(connections: number, seconds: number, nSkills: number, nAgents: number, env: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-bench-gw-'));
  const server = await startServer({ SKILLDOCK_WORKER: 'false', ...env });
  try {
    const token = await seedGatewayAgents(server.base, dir, nSkills, nAgents);
    const url = `${server.base}/api/v1/agents/agent-000/skills`;
    const auth = { authorization: `Bearer ${token}` };
    const first = await fetch(url, { headers: auth });
    if (first.status !== 200) throw new Error(`the gateway route answered ${first.status}: ${await first.text()}`);
    const etag = first.headers.get('etag')!;
    const body = (await first.json()) as { skills: unknown[]; prompt: { chars: number } };
    const poll = { ...auth, 'if-none-match': etag };
    await run(`${server.base}/api/ping`, {}, connections, 2); // warm-up
    await run(url, poll, connections, 2);
    const trivial = toResult('/api/ping', await run(`${server.base}/api/ping`, {}, connections, seconds), 200);
    const notModified = toResult('304 poll', await run(url, poll, connections, seconds), 304);
    const full = toResult('200 poll', await run(url, auth, connections, seconds), 200);
    await server.stop();
    const failures = [trivial, notModified, full].reduce((n, r) => n + r.errors + r.non2xx, 0) + server.errorLines();
    if (failures)
      throw new Error(
        `agents gateway: ${[trivial, notModified, full].map((r) => `${r.path}: ${Math.round(r.requestsPerSecond)} req/s, ${r.errors} client errors (${r.timeouts} timeouts), ${r.non2xx} unexpected answers`).join('; ')}; ${server.errorLines()} server error lines`,
      );
    return { skills: nSkills, agents: nAgents, trivial, notModified, full, promptChars: body.prompt.chars } satisfies AgentsGatewayResult;
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
