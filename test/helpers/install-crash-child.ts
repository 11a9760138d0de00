// A child process for the install crash test: boots the services with their worker (as `npm start`
// does, on the config the parent passes), queues one skill install through the install service and,
// as the install leaves the named stage (the record holds that stage by then), writes a marker and
// freezes its thread, so the parent SIGKILLs it right there. If the job ends first, the marker says so.
//   node --import tsx --import ./scripts/server-only-hook.mjs <this> '<json>'
import fs from 'node:fs';
import { loadConfig } from '@/lib/core/config';
import { skillInstallHandler, skillInstallJob } from '@/lib/installs/jobs/handlers';
import { installSkill } from '@/lib/installs/service';
import { getJob } from '@/lib/jobs/queue';
import type { JobContext } from '@/lib/jobs/types';
import { startServices } from '@/lib/services';
import { installActor } from './install-jobs';

export interface CrashChildInput {
  env: Record<string, string>;
  configId: string;
  skillKey: string;
  /** A stage of the job's progress: boot, a skill's stage (plan, copy, …), snapshot or switch. */
  stage: string;
  marker: string;
}

const input = JSON.parse(process.argv[2]) as CrashChildInput;
// Renamed into place, so the parent never reads half a marker.
const write = (m: Record<string, unknown>) => {
  fs.writeFileSync(`${input.marker}.tmp`, JSON.stringify(m));
  fs.renameSync(`${input.marker}.tmp`, input.marker);
};

/** Synchronous, so nothing more of the job runs: no await, no timer, no heartbeat. */
function freeze(next: string): never {
  write({ paused: input.stage, next });
  for (;;) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}

const services = await startServices({ config: loadConfig(input.env) });
const run = skillInstallHandler({ ...services.sandboxes, dataDir: services.config.dataDir });
services.jobKinds.register(skillInstallJob, (ctx) => {
  let armed = false;
  const paused: JobContext<typeof ctx.params> = {
    ...ctx,
    // Stage names as the build reports them: "boot", "skill 1/1 copy", "snapshot", "switch", "ready".
    progress: (percent, stage) => {
      const name = stage.replace(/^skill \d+\/\d+ /, '');
      if (armed && name !== input.stage) freeze(name);
      if (name === input.stage) armed = true;
      ctx.progress(percent, stage);
    },
  };
  return run(paused);
});

const started = await installSkill(
  { database: services.database, dataDir: services.config.dataDir, sandboxes: services.sandboxes },
  installActor,
  input.configId,
  {
    skillKey: input.skillKey,
  },
);
if (!started.jobId) {
  write({ ended: 'noop' });
  process.exit(1);
}
for (;;) {
  const job = await getJob(services.database, started.jobId);
  if (job.state !== 'queued' && job.state !== 'running') {
    write({ ended: job.state, error: job.error });
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 100));
}
