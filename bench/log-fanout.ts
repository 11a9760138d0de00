// Live log fan-out: one job writes N lines, F SSE clients follow it. Baseline in the same run:
// the same emitter writes the same lines to a file followed by F `tail -f` processes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EMITTER } from '../lib/jobs/builtin/pipeline-selftest';
import { fmt, login, nowMs, percentile, startServer } from './common';

const STAMP = / t=(\d+\.\d+)/;

export interface FanoutResult {
  followers: number;
  lines: number;
  p50: number;
  p95: number;
  linesPerSecond: number;
  complete: boolean;
}

function summarize(latencies: number[], lines: number, followers: number, first: number, last: number, complete: boolean): FanoutResult {
  latencies.sort((a, b) => a - b);
  return {
    followers,
    lines,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    linesPerSecond: (lines * followers) / ((last - first) / 1000),
    complete,
  };
}

async function followSse(base: string, cookie: string, jobId: string, lat: number[], onLine: () => void): Promise<number> {
  const res = await fetch(`${base}/api/v1/jobs/${jobId}/events`, { headers: { cookie, 'last-event-id': '0' } });
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  let buf = '';
  let count = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return count;
    const at = nowMs();
    buf += dec.decode(value, { stream: true });
    let i: number;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      const ev = buf.slice(0, i);
      buf = buf.slice(i + 2);
      if (ev.startsWith('event: end') || ev.includes('\nevent: end')) {
        await reader.cancel();
        return count;
      }
      const m = STAMP.exec(ev);
      if (m) {
        lat.push(at - Number(m[1]));
        count++;
        onLine();
      }
    }
  }
}

export async function fanoutSkilldock(lines: number, followers: number, rate: number, env: Record<string, string> = {}): Promise<FanoutResult> {
  // Every follower is the same user here; the per-user stream cap must not refuse the bench's own followers.
  const server = await startServer({ SKILLDOCK_STREAMS_PER_USER: String(Math.max(16, followers)), ...env });
  try {
    const cookie = await login(server.base);
    const lat: number[] = [];
    let first = Infinity;
    let last = 0;
    const job = await fetch(`${server.base}/api/v1/jobs`, {
      method: 'POST',
      headers: { cookie, origin: server.base, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'pipeline-selftest', params: { lines, ratePerSecond: rate } }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    const tick = () => {
      const t = nowMs();
      if (t < first) first = t;
      last = t;
    };
    const counts = await Promise.all(Array.from({ length: followers }, () => followSse(server.base, cookie, job.id, lat, tick)));
    return summarize(
      lat,
      lines,
      followers,
      first,
      last,
      counts.every((c) => c === lines),
    );
  } finally {
    await server.stop();
  }
}

export async function fanoutTail(lines: number, followers: number, rate: number): Promise<FanoutResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skilldock-tail-'));
  const file = path.join(dir, 'job.log');
  fs.writeFileSync(file, '');
  const lat: number[] = [];
  let first = Infinity;
  let last = 0;
  const tails = Array.from({ length: followers }, () => spawn('tail', ['-n', '+1', '-F', file], { stdio: ['ignore', 'pipe', 'ignore'] }));
  const done = tails.map(
    (t) =>
      new Promise<number>((resolve) => {
        let buf = '';
        let count = 0;
        t.stdout!.on('data', (chunk: Buffer) => {
          const at = nowMs();
          buf += chunk.toString();
          const parts = buf.split('\n');
          buf = parts.pop()!;
          for (const p of parts) {
            const m = STAMP.exec(p);
            if (!m) continue;
            lat.push(at - Number(m[1]));
            count++;
            if (at < first) first = at;
            last = at;
          }
          if (count >= lines) {
            t.kill('SIGTERM');
            resolve(count);
          }
        });
      }),
  );
  await new Promise((r) => setTimeout(r, 300)); // let every tail open the file
  const out = fs.openSync(file, 'a');
  const emitter = spawn(process.execPath, ['-e', EMITTER, String(lines), String(rate)], { stdio: ['ignore', out, 'inherit'] });
  await new Promise((r) => emitter.once('exit', r));
  fs.closeSync(out);
  const counts = await Promise.all(done);
  fs.rmSync(dir, { recursive: true, force: true });
  return summarize(
    lat,
    lines,
    followers,
    first,
    last,
    counts.every((c) => c === lines),
  );
}

export function describeFanout(r: FanoutResult): string {
  return `${r.lines} lines × ${r.followers} followers: p50 ${fmt(r.p50)} ms, p95 ${fmt(r.p95)} ms, ${Math.round(r.linesPerSecond).toLocaleString('en')} lines/s delivered${r.complete ? '' : ' (INCOMPLETE)'}`;
}
