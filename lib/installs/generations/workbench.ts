// Where a new generation is built and how it is kept. Docker: a maintenance container committed
// as the next snapshot image. E2B and CubeSandbox have no image a sandbox can be committed to, so
// a generation there is a bundle: the list of skill versions (their files are the catalog's stored
// copies), proven by installing all of them into a fresh maintenance sandbox, and installed again
// into every new sandbox of the config when it starts (bundle-apply.ts).
import { createHash } from 'node:crypto';
import type { ImageSkill } from '@/db/schema';
import type { CreateSandboxSpec, SandboxBackend } from '../../sandbox/backend';
import { CONFIG_LABEL } from '../../sandbox/config/in-use';
import type { DockerBackend } from '../../sandbox/docker/backend';
import { MAINTENANCE_LABEL } from '../../sandbox/images/snapshot-names';
import { closeMaintenance, commitSnapshot, type Maintenance, openMaintenance } from '../docker/build';
import { SANDBOX_RUNTIME_ENV } from '../plan/plan';

export { bundleRef, isBundleRef } from '../../sandbox/images/snapshot-names';

import { backendTarget, dockerTarget, type InstallTarget } from '../steps/target';

export interface Committed {
  imageId: string;
  ref: string;
  sizeBytes: number | null;
  layers: number | null;
}

export interface Workbench {
  readonly target: InstallTarget;
  /** Makes the generation: an engine image, or the bundle's digest. */
  commit(p: { plannedRef: string; generation: number; skills: ImageSkill[] }): Promise<Committed>;
  /** Undoes what commit made, for a generation that never became active. */
  discard(plannedRef: string): Promise<void>;
  /** Always removes the maintenance sandbox; safe to call twice. */
  close(): Promise<void>;
}

export interface OpenWorkbenchInput {
  configId: string;
  image: string;
  spec: Omit<CreateSandboxSpec, 'image'>;
  runId: string;
}

export async function dockerWorkbench(backend: DockerBackend, input: OpenWorkbenchInput): Promise<Workbench> {
  const m: Maintenance = await openMaintenance(backend, input);
  return {
    target: dockerTarget(m),
    async commit(p) {
      const s = await commitSnapshot(m, { plannedRef: p.plannedRef, generation: p.generation, env: SANDBOX_RUNTIME_ENV });
      return s;
    },
    async discard(ref) {
      await m.conn.api
        .getImage(ref)
        .remove()
        .catch((e: { statusCode?: number }) => {
          if (e.statusCode !== 404) throw e;
        });
    },
    close: () => closeMaintenance(m),
  };
}

/** The digest a bundle generation is known by: its skill versions in a fixed order. */
export function bundleDigest(skills: ImageSkill[]): string {
  const canonical = [...skills].sort((a, b) => a.skillKey.localeCompare(b.skillKey)).map((s) => [s.skillKey, s.version, s.contentHash]);
  return `sha256:${createHash('sha256').update(JSON.stringify(canonical)).digest('hex')}`;
}

export async function bundleWorkbench(backend: SandboxBackend, input: OpenWorkbenchInput): Promise<Workbench> {
  const { env: _env, labels, ...spec } = input.spec;
  const sandbox = await backend.create({
    ...spec,
    image: input.image,
    labels: { ...labels, [CONFIG_LABEL]: input.configId, [MAINTENANCE_LABEL]: input.runId },
  });
  let closed = false;
  return {
    target: backendTarget(backend, sandbox.id),
    async commit(p) {
      return { imageId: bundleDigest(p.skills), ref: p.plannedRef, sizeBytes: null, layers: null };
    },
    async discard() {},
    async close() {
      if (closed) return;
      closed = true;
      await backend.remove(sandbox.id);
    },
  };
}
