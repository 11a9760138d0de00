// `npm run bench`: measures, prints the figures as ratios against same-run baselines, saves JSON.
import fs from 'node:fs';
import path from 'node:path';
import { apiLoad } from './api-load';
import { ensureBuilt, fmt, ROOT } from './common';
import { describeFanout, fanoutSkilldock, fanoutTail } from './log-fanout';

const LINES = Number(process.env.BENCH_LINES ?? 50_000);
const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 20);
const env: Record<string, string> = process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {};

ensureBuilt();
console.log(`Database: ${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite (embedded)'}`);

const fanout: Record<string, unknown> = {};
for (const rate of [0, Number(process.env.BENCH_RATE ?? 5000)]) {
  const label = rate ? `paced at ${rate.toLocaleString('en')} lines/s` : 'unthrottled burst';
  console.log(`\n== Live log fan-out, ${label} ==`);
  const tail = await fanoutTail(LINES, FOLLOWERS, rate);
  console.log(`baseline (file + tail -f): ${describeFanout(tail)}`);
  const sse = await fanoutSkilldock(LINES, FOLLOWERS, rate, env);
  console.log(`skilldock (job log → SSE): ${describeFanout(sse)}`);
  console.log(`ratio: p50 ×${fmt(sse.p50 / tail.p50, 2)}, p95 ×${fmt(sse.p95 / tail.p95, 2)}, throughput ×${fmt(sse.linesPerSecond / tail.linesPerSecond, 2)} of baseline`);
  fanout[rate ? 'paced' : 'burst'] = { rate, tail, sse };
}

console.log('\n== API under load (50 connections) ==');
const load = await apiLoad(50, Number(process.env.BENCH_SECONDS ?? 10), 200, env);
for (const r of [load.trivial, load.jobs]) console.log(`${r.path.padEnd(14)} ${Math.round(r.requestsPerSecond).toLocaleString('en')} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}, non-2xx ${r.non2xx}`);
console.log(`ratio: /api/v1/jobs serves ${fmt((load.jobs.requestsPerSecond / load.trivial.requestsPerSecond) * 100, 1)}% of the trivial route's req/s; p99 ×${fmt(load.jobs.p99 / load.trivial.p99, 2)}`);

const out = path.join(ROOT, 'bench/results');
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'latest.json'), JSON.stringify({ at: new Date().toISOString(), lines: LINES, followers: FOLLOWERS, fanout, load }, null, 2));
console.log(`\nSaved bench/results/latest.json`);
