import type { JobRegistry } from '../registry';
import { diagnosticsHandler, diagnosticsJob, type EngineStatus } from './diagnostics';
import { pipelineSelftestJob, runPipelineSelftest } from './pipeline-selftest';

export { diagnosticsJob, type EngineStatus } from './diagnostics';
export { EMITTER, pipelineSelftestJob } from './pipeline-selftest';
export { type SelftestParams, selftestParams } from './selftest-params';

/** The kinds that belong to no domain: diagnostics of the host and the live-log self-test. */
export function registerBuiltinJobs(registry: JobRegistry, deps: { engineStatus: () => Promise<EngineStatus> }): void {
  registry.register(diagnosticsJob, diagnosticsHandler(deps));
  registry.register(pipelineSelftestJob, runPipelineSelftest);
}
