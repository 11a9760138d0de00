// The machine-facing API against the platform's limit, in one run against the production server:
// the gateway's 304 poll (GET /api/v1/agents/{id}/skills, If-None-Match, an API token) under 50
// connections (autocannon), and the agent event stream opened by 50 clients at once (open, read the
// first version frame, leave), each beside a plain node:http server in a child process answering
// the same bytes (same status, headers and body).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import { seedGatewayAgents } from './agents-gateway';
import { ROOT, startServer } from './common';
import type { ChildSpec, Recorded } from './machine-child';

export interface Rate {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Requests that failed or did not get the expected status. */
  failed: number;
}
export interface MachineResult {
  skills: number;
  agents: number;
  connections: number;
  poll: { skilldock: Rate; plain: Rate; ratio: number };
  events: { skilldock: Rate; plain: Rate; ratio: number };
}

/** Headers the HTTP layer writes on its own; the plain server's node:http writes its own. */
const TRANSPORT = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
const recorded = (status: number, headers: Headers, body: string): Recorded => ({
  status,
  headers: [...headers].filter(([k]) => !TRANSPORT.has(k)),
  body,
});

function poll(url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<Rate> {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections, duration: seconds }, (err, r) => {
      if (err) return reject(err);
      const ok = r.statusCodeStats?.['304']?.count ?? 0;
      resolve({ requestsPerSecond: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, failed: r.errors + r.requests.total - ok });
    });
  });
}

/** One event stream: opened on a fresh connection, read until its first version frame, then left. */
function openOnce(url: URL, headers: Record<string, string>): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get(url, { headers, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        res.once('end', () => resolve(false));
        return;
      }
      let seen = '';
      res.on('data', (c: Buffer) => {
        seen += c.toString();
        if (seen.includes('event: version')) {
          req.destroy();
          resolve(true);
        }
      });
      res.once('close', () => resolve(seen.includes('event: version')));
    });
    req.once('error', () => resolve(false));
  });
}

async function streams(url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<Rate> {
  const u = new URL(url);
  const until = performance.now() + seconds * 1000;
  const times: number[] = [];
  let failed = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        if (await openOnce(u, headers)) times.push(performance.now() - t0);
        else failed++;
      }
    }),
  );
  times.sort((a, b) => a - b);
  const at = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? NaN);
  return { requestsPerSecond: times.length / seconds, p50: at(0.5), p99: at(0.99), failed };
}

async function plainChild(spec: ChildSpec) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/machine-child.ts')], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.stdin!.write(`${JSON.stringify(spec)}\n`);
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (l) => resolve(Number(l)));
    child.once('exit', (code) => reject(new Error(`the plain node:http child exited (${code}) before listening`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function machineBench(
  connections: number,
  seconds: number,
  nSkills: number,
  nAgents: number,
  env: Record<string, string> = {},
): Promise<MachineResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-bench-machine-'));
  const server = await startServer({ SKILLDOCK_WORKER: 'false', SKILLDOCK_STREAMS_PER_USER: String(Math.max(connections * 2, 16)), ...env });
  let plain: Awaited<ReturnType<typeof plainChild>> | undefined;
  try {
    const token = await seedGatewayAgents(server.base, dir, nSkills, nAgents);
    const auth = { authorization: `Bearer ${token}` };
    const pollUrl = `${server.base}/api/v1/agents/agent-000/skills`;
    const first = await fetch(pollUrl, { headers: auth });
    if (first.status !== 200) throw new Error(`the gateway route answered ${first.status}: ${await first.text()}`);
    await first.arrayBuffer();
    const pollHeaders = { ...auth, 'if-none-match': first.headers.get('etag')! };
    const notModified = await fetch(pollUrl, { headers: pollHeaders });
    if (notModified.status !== 304) throw new Error(`the 304 poll answered ${notModified.status}`);
    // The first bytes of an event stream: the retry line and the version frame.
    const ac = new AbortController();
    const ev = await fetch(`${server.base}/api/v1/agents/agent-000/events`, { headers: auth, signal: ac.signal });
    if (ev.status !== 200 || !ev.body) throw new Error(`the event stream answered ${ev.status}: ${await ev.text()}`);
    const reader = ev.body.getReader();
    let evBody = '';
    while (!evBody.includes('event: version')) evBody += new TextDecoder().decode((await reader.read()).value);
    ac.abort();
    plain = await plainChild({ poll: recorded(304, notModified.headers, await notModified.text()), events: recorded(200, ev.headers, evBody) });

    const eventsUrl = `${server.base}/api/v1/agents/agent-000/events`;
    await poll(pollUrl, pollHeaders, connections, 2); // warm-up
    await poll(`${plain.base}/poll`, {}, connections, 2);
    await streams(eventsUrl, auth, connections, 2);
    const sPoll = await poll(pollUrl, pollHeaders, connections, seconds);
    const pPoll = await poll(`${plain.base}/poll`, {}, connections, seconds);
    const sEvents = await streams(eventsUrl, auth, connections, seconds);
    const pEvents = await streams(`${plain.base}/events`, {}, connections, seconds);
    const failures = sPoll.failed + pPoll.failed + sEvents.failed + pEvents.failed + server.errorLines();
    if (failures)
      throw new Error(
        `machine bench: ${failures} failures (304 poll ${sPoll.failed}, plain ${pPoll.failed}; events ${sEvents.failed}, plain ${pEvents.failed}; ${server.errorLines()} server error lines)`,
      );
    return {
      skills: nSkills,
      agents: nAgents,
      connections,
      poll: { skilldock: sPoll, plain: pPoll, ratio: sPoll.requestsPerSecond / pPoll.requestsPerSecond },
      events: { skilldock: sEvents, plain: pEvents, ratio: sEvents.requestsPerSecond / pEvents.requestsPerSecond },
    };
  } finally {
    await plain?.stop();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const line = (what: string, r: Rate) =>
  `${what.padEnd(44)} ${Math.round(r.requestsPerSecond).toLocaleString('en').padStart(7)} /s, p50 ${r.p50} ms, p99 ${r.p99} ms`;

export function describeMachine(m: MachineResult): string[] {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return [
    line('skilldock 304 poll (API token, If-None-Match)', m.poll.skilldock),
    line('plain node:http, the same bytes', m.poll.plain),
    line('skilldock event stream opens (first frame)', m.events.skilldock),
    line('plain node:http, the same bytes', m.events.plain),
    `ratio: the 304 poll serves ${pct(m.poll.ratio)} of plain node:http (target ≥ 25%); event stream opens ${pct(m.events.ratio)}`,
  ];
}
