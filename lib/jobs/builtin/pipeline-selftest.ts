import type { z } from 'zod';
import { defineJobKind, type JobHandler, type JobKind } from '../kind';
import { type SelftestParams, selftestParams } from './selftest-params';

/**
 * A child process prints numbered lines stamped with their write time; the job pipes them into the
 * log. Measures this deployment's live-log path end to end (process → database → NOTIFY → followers),
 * and is the workload of the fan-out benchmark.
 */
export const EMITTER = `
const [total, rate] = process.argv.slice(1).map(Number);
const now = () => performance.timeOrigin + performance.now();
let i = 0;
const start = now();
function burst() {
  const due = rate > 0 ? Math.min(total, Math.floor(((now() - start) / 1000) * rate) + 1) : total;
  let out = '';
  while (i < due && out.length < 65536) { i++; out += 'line ' + i + ' of ' + total + ' t=' + now().toFixed(3) + '\\n'; }
  const more = () => (i < total ? setTimeout(burst, rate > 0 ? 5 : 0) : undefined);
  if (out) process.stdout.write(out, more); else more();
}
burst();
`;

export interface SelftestResult {
  lines: number;
  seconds: number;
  linesPerSecond: number;
}

export const pipelineSelftestJob: JobKind<SelftestParams, SelftestResult, z.input<typeof selftestParams>> = defineJobKind({
  name: 'pipeline-selftest',
  title: (p) => `Log pipeline self-test: ${p.lines.toLocaleString('en')} lines${p.ratePerSecond ? ` at ${p.ratePerSecond}/s` : ''}`,
  params: selftestParams,
  startPermission: 'jobs.run',
  concurrency: 4,
  maxAttempts: 1,
  resumable: false,
});

export const runPipelineSelftest: JobHandler<SelftestParams, SelftestResult> = async (ctx) => {
  const { lines, ratePerSecond } = ctx.params;
  let seen = 0;
  const started = Date.now();
  const tick = setInterval(() => ctx.progress((seen / lines) * 100, `${seen.toLocaleString('en')} / ${lines.toLocaleString('en')} lines`), 250);
  try {
    const r = await ctx.run(process.execPath, ['-e', EMITTER, String(lines), String(ratePerSecond)], {
      maxOutputBytes: 64 * 1024,
      onLine: () => {
        seen++;
      },
    });
    if (r.aborted) throw new Error('canceled');
    if (r.code !== 0) throw new Error(`emitter exited with code ${r.code}: ${r.stderr.slice(0, 500)}`);
  } finally {
    clearInterval(tick);
  }
  const seconds = (Date.now() - started) / 1000;
  return { lines, seconds, linesPerSecond: Math.round(lines / Math.max(seconds, 0.001)) };
};
