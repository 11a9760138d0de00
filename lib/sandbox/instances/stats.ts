import { AppError } from '../../core/errors';
import type { SandboxBackend } from '../backend';
import type { ContainerStatsSample } from '../docker/backend';
import { type InstanceDeps, resolve } from './service';

// Asked of the method, not the class: the server bundle may hold more than one copy of a class.
const hasStats = (b: SandboxBackend): b is SandboxBackend & { stats(id: string): Promise<ContainerStatsSample> } =>
  typeof (b as { stats?: unknown }).stats === 'function';

export async function instanceStats(deps: InstanceDeps, id: string): Promise<ContainerStatsSample & { at: string }> {
  const { backend, sandbox } = await resolve(deps, id);
  if (!backend.capabilities().stats || !hasStats(backend))
    throw new AppError('invalid_state', `The ${backend.kind} backend does not report CPU and memory of a sandbox.`);
  if (sandbox.state !== 'running') throw new AppError('invalid_state', `The sandbox is ${sandbox.state}; only a running one has CPU and memory figures.`);
  return { ...(await backend.stats(sandbox.id)), at: new Date().toISOString() };
}
