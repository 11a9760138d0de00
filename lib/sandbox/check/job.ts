// The full check as a job: a live log with one line per probe, progress per probe, and the report
// stored with the config. The first passing check enables the config; a later failure keeps it
// enabled but shows the failing probe, since instances may already rely on it.
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppDb } from '@/db/client';
import { sandboxConfigs } from '@/db/schema';
import { recordAudit } from '../../audit/audit';
import { jobActor } from '../../jobs/job-actor';
import { defineJobKind, type JobHandler, type JobKind } from '../../jobs/kind';
import type { JobRegistry } from '../../jobs/registry';
import type { SecretBox } from '../../secrets/crypto';
import { CONFIG_LABEL } from '../config/in-use';
import type { DockerConfig } from '../config/schema';
import { loadRow } from '../config/store';
import { loadEnvFor } from '../env/store';
import { type BackendFactoryDeps, backendForConfig, sandboxSpecFor } from '../factory';
import { type FullCheckInput, type FullCheckReport, runFullCheck } from './full-check';

export const sandboxCheckParams = z.strictObject({
  configId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  configName: z.string().max(200).optional(),
});
export type SandboxCheckParams = z.output<typeof sandboxCheckParams>;

export const sandboxCheckJob: JobKind<SandboxCheckParams, FullCheckReport> = defineJobKind({
  name: 'sandbox.check',
  title: (p) => `Full check of sandbox config ${p.configName ?? p.configId}`,
  params: sandboxCheckParams,
  concurrency: 2,
  maxAttempts: 1,
  // Safe to run again from the start: cleanup finds what a crashed run left by its label.
  resumable: true,
  retryPermission: 'sandboxes.write',
});

export interface SandboxCheckDeps extends BackendFactoryDeps {
  db: AppDb;
  secrets: SecretBox;
  /** Probes other domains add (the network rules). */
  extraProbes?: FullCheckInput['extraProbes'];
}

export async function storeCheckReport(db: AppDb, configId: string, report: FullCheckReport): Promise<void> {
  const at = new Date();
  await db
    .update(sandboxConfigs)
    .set({
      lastCheckAt: at,
      lastCheckReport: report as unknown as Record<string, unknown>,
      ...(report.passed ? { lastCheckPassedAt: at, enabled: true } : {}),
    })
    .where(eq(sandboxConfigs.id, configId));
}

export function sandboxCheckHandler(deps: SandboxCheckDeps): JobHandler<SandboxCheckParams, FullCheckReport> {
  return async (ctx) => {
    const row = await loadRow(deps.db, ctx.params.configId);
    const actor = jobActor(ctx.job);
    const { env } = await loadEnvFor(deps.db, deps.secrets, { principal: null, sandboxConfig: { id: row.id } });
    const expected =
      row.backend === 'docker' ? { memoryMb: (row.config as DockerConfig).memoryLimitMb, pids: (row.config as DockerConfig).pidsLimit } : undefined;
    ctx.log(`Full check of "${row.name}" (${row.backend})`);
    const report = await runFullCheck({
      backend: () => backendForConfig(row, deps),
      spec: { ...sandboxSpecFor(row, deps.secrets), env, labels: { [CONFIG_LABEL]: row.id } },
      expected,
      extraProbes: deps.extraProbes,
      signal: ctx.signal,
      log: (line, stream) => ctx.log(line, stream),
      onProbe: (p, i, total) => ctx.progress((i / total) * 100, p.name),
    });
    await storeCheckReport(deps.db, row.id, report);
    await recordAudit(deps.db, actor, {
      action: 'sandbox.config.check',
      targetType: 'sandbox_config',
      targetId: row.id,
      after: { passed: report.passed, failed: report.probes.filter((p) => p.status === 'fail').map((p) => p.name) },
    });
    ctx.log(report.passed ? 'All probes passed.' : `Failed: ${report.probes.find((p) => p.status === 'fail')?.name}`, report.passed ? 'info' : 'stderr');
    return report;
  };
}

export function registerSandboxJobs(registry: JobRegistry, deps: SandboxCheckDeps): void {
  registry.register(sandboxCheckJob, sandboxCheckHandler(deps));
}
