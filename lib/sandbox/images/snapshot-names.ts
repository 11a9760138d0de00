// Names and labels of what a skill install leaves on a Docker engine: the maintenance container a
// skill is installed in, and the snapshot images committed from it. A leaf module (no imports), so
// the sandbox instance service can use the labels without depending on the install code.
import { createHash } from 'node:crypto';

/** On a maintenance container: the install run it belongs to. Never a user instance. */
export const MAINTENANCE_LABEL = 'skilldock.maintenance';
/** On a snapshot image: `true`. */
export const SNAPSHOT_LABEL = 'skilldock.snapshot';
/** On a snapshot image: its generation, a positive integer never reused within a config. */
export const GENERATION_LABEL = 'skilldock.generation';
/** On a snapshot image: the engine id of the image it was built from. */
export const PARENT_LABEL = 'skilldock.parent';

/** Installed skills live at <SKILLS_ROOT>/<name>. */
export const SKILLS_ROOT = '/opt/skilldock/skills';

const REPOSITORY = 'skilldock-snapshot';
const SAFE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const SKILL_DIR = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
const RUN_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * A maintenance label value marks a live maintenance container; an empty one is what a snapshot
 * (and every sandbox started from it) inherits, because a commit cannot drop a container label.
 */
export function isMaintenanceLabels(labels: Record<string, string> | undefined): boolean {
  return !!labels?.[MAINTENANCE_LABEL];
}

/** The reference a config's snapshot of `generation` is committed to, e.g. `skilldock-snapshot/<config id>:g3`. */
export function snapshotRef(configId: string, generation: number): string {
  if (!Number.isInteger(generation) || generation < 1) throw new Error(`snapshot generation must be a positive integer, not ${generation}`);
  // Image repositories are lower case; an id that is not (config ids are UUIDs) is hashed instead.
  const part = SAFE_ID.test(configId) && configId.length <= 64 ? configId : `h${createHash('sha256').update(configId).digest('hex').slice(0, 24)}`;
  return `${REPOSITORY}/${part}:g${generation}`;
}

/** A skill folder name: no slash, no leading dot (so `.<name>.new` can never be a skill), short. */
export function isSkillDirName(name: string): boolean {
  return typeof name === 'string' && SKILL_DIR.test(name);
}

export function isRunId(id: string): boolean {
  return typeof id === 'string' && RUN_ID.test(id);
}

/** A bundle generation's name (E2B, CubeSandbox): not an engine image, so nothing tries to pull or remove it. */
export const bundleRef = (configId: string, generation: number): string => `bundle:${configId}:g${generation}`;
export const isBundleRef = (ref: string): boolean => ref.startsWith('bundle:');
/** On a bundle config's sandbox: the digest of the bundle its start installed, or NO_BUNDLE. */
export const BUNDLE_LABEL = 'skilldock.bundle';
export const NO_BUNDLE = 'none';
