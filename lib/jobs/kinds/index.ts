import { registerJobKind } from '../registry';
import { diagnosticsJob } from './diagnostics';
import { pipelineSelftestJob } from './pipeline-selftest';

export function registerBuiltinJobKinds(): void {
  registerJobKind(diagnosticsJob);
  registerJobKind(pipelineSelftestJob);
}
