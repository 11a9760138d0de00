// What a new sandbox needs beyond its spec before anyone may use it: on backends without images
// of their own (E2B, CubeSandbox), the config's installed skills, put in at start by the skill
// install domain (which passes this hook in; the instance code knows nothing of skills).
import { describeError, logger } from '../../core/logger';
import type { CreateSandboxSpec, SandboxBackend, SandboxInfo } from '../backend';
import type { ConfigRow } from '../config/view';

export interface StartPreparation {
  /** Env the prepared sandbox needs (e.g. the PATH of the skills' runtimes). */
  env: Record<string, string>;
  /** Labels that say what was prepared (so a later generation shows the sandbox as stale). */
  labels: Record<string, string>;
  /** Runs in the new sandbox; a throw fails the start and the sandbox is removed. */
  apply(backend: SandboxBackend, sandboxId: string): Promise<void>;
}

/** Null when a sandbox of this config needs nothing at start. */
export type StartPreparer = (row: ConfigRow) => Promise<StartPreparation | null>;

/** Creates a sandbox and prepares it; one that cannot be prepared is removed, never left half-ready. */
export async function createPrepared(backend: SandboxBackend, row: ConfigRow, spec: CreateSandboxSpec, prepare?: StartPreparer): Promise<SandboxInfo> {
  const prep = prepare ? await prepare(row) : null;
  const sandbox = await backend.create(prep ? { ...spec, env: { ...prep.env, ...spec.env }, labels: { ...spec.labels, ...prep.labels } } : spec);
  if (!prep) return sandbox;
  try {
    await prep.apply(backend, sandbox.id);
  } catch (e) {
    await backend
      .remove(sandbox.id)
      .catch((err) => logger.warn('an unprepared sandbox could not be removed', { sandbox: sandbox.id, err: describeError(err) }));
    throw e;
  }
  return sandbox;
}
