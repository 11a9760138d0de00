// Propagation into a real OpenClaw gateway: an allowlist saved in the console (PUT
// /api/v1/agents/allowlists) until the gateway's own config file holds the new list, through the
// watcher and a sync job of the production server — with the file written by Skilldock itself and,
// for a few samples, through OpenClaw's CLI (`config patch --stdin`, a Node 24 start each).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import JSON5 from 'json5';
import { ensureOpenClaw, makeOpenClawState } from '../test/helpers/openclaw';
import { fmt, login, nowMs, percentile, startServer } from './common';

export interface PropagationResult {
  mode: 'file' | 'cli';
  samples: number;
  p50: number;
  p95: number;
  pollMs: number;
}

async function propagation(mode: 'file' | 'cli', samples: number, pollMs: number): Promise<PropagationResult> {
  const oc = await ensureOpenClaw();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-bench-oc-'));
  const roots = path.join(dir, 'roots');
  const stateDir = path.join(roots, 'state');
  makeOpenClawState(stateDir, '{ agents: { ownership: "explicit", entries: { a1: { skills: ["s-start"] }, a2: {} } } }\n', {});
  const server = await startServer({ SKILLDOCK_GATEWAY_ROOTS: roots, SKILLDOCK_GATEWAY_POLL_MS: String(pollMs) });
  try {
    const cookie = await login(server.base);
    const call = async (method: string, p: string, body: unknown, expect: number) => {
      const r = await fetch(`${server.base}${p}`, {
        method,
        headers: { cookie, origin: server.base, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (r.status !== expect) throw new Error(`${method} ${p} answered ${r.status}: ${await r.text()}`);
      return r.json() as Promise<Record<string, unknown>>;
    };
    const gw = await call(
      'POST',
      '/api/v1/gateways',
      { name: 'bench', kind: 'openclaw', location: { type: 'local', stateDir, cli: oc.cli, write: mode, home: dir } },
      201,
    );
    await call('POST', `/api/v1/gateways/${gw.id}/adopt`, {}, 200);
    const listOf = () => {
      try {
        return JSON.stringify(JSON5.parse(fs.readFileSync(path.join(stateDir, 'openclaw.json'), 'utf8')).agents?.entries?.a1?.skills);
      } catch {
        return null; // mid-rename: read again
      }
    };
    const times: number[] = [];
    let revision = ((await (await fetch(`${server.base}/api/v1/agents/a1`, { headers: { cookie } })).json()) as { revision: number }).revision;
    for (let i = 0; i < samples; i++) {
      const want = [`s-${i}`];
      const t0 = nowMs();
      const saved = (await call('PUT', '/api/v1/agents/allowlists', { changes: [{ agentId: 'a1', revision, skills: want }] }, 200)) as {
        items: { agentId: string; revision: number }[];
      };
      revision = saved.items.find((a) => a.agentId === 'a1')?.revision ?? revision + 1;
      const end = t0 + 120_000;
      while (listOf() !== JSON.stringify(want)) {
        if (nowMs() > end) throw new Error(`the gateway never got ${want} (${mode})`);
        await new Promise((r) => setTimeout(r, 5));
      }
      times.push(nowMs() - t0);
    }
    times.sort((a, b) => a - b);
    return { mode, samples, p50: percentile(times, 50), p95: percentile(times, 95), pollMs };
  } finally {
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function gatewayOpenClawBench(fileSamples: number, cliSamples: number, pollMs: number) {
  const file = await propagation('file', fileSamples, pollMs);
  const cli = await propagation('cli', cliSamples, pollMs);
  return { file, cli };
}

export const describePropagation = (r: PropagationResult) =>
  `${r.mode === 'file' ? 'file written by Skilldock' : "OpenClaw's CLI (config patch)"}: p50 ${fmt(r.p50, 0)} ms, p95 ${fmt(r.p95, 0)} ms over ${r.samples} saves (watcher every ${r.pollMs} ms)`;
