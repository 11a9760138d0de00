// A job whose one step must not be interrupted, as a system package transaction: its child writes
// "started" to a marker file, waits until a go-file exists, then writes "done". Shared by the
// in-process shutdown test and the server-process fixture.
import { z } from 'zod';
import { defineJobKind, type JobHandler } from '@/lib/jobs/kind';

export const criticalTestJob = defineJobKind({
  name: 'test.critical-step',
  title: () => 'A step that must not be interrupted',
  params: z.strictObject({ marker: z.string(), go: z.string() }),
  concurrency: 1,
  maxAttempts: 1,
  resumable: false,
});

const CHILD = `const fs = require('fs');
const [marker, go] = process.argv.slice(1);
fs.writeFileSync(marker, 'started');
const t = setInterval(() => { if (fs.existsSync(go)) { clearInterval(t); fs.writeFileSync(marker, 'done'); } }, 20);`;

export function criticalTestHandler(note: (event: string) => void): JobHandler<{ marker: string; go: string }, { code: number | null }> {
  return async (ctx) => {
    const r = await ctx.run(process.execPath, ['-e', CHILD, ctx.params.marker, ctx.params.go], { critical: true, timeoutMs: 120_000 });
    note(`child-exit:${r.code ?? r.signal}`);
    return { code: r.code };
  };
}
