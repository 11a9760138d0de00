// The variables a skill's install steps get in a sandbox config: what an exec for that skill gets
// with no principal (the config's variables, then the skill's workspace variables). Given to each
// step's process only; the snapshot a build commits never holds them.
import type { AppDb } from '@/db/client';
import { loadEnvFor } from '../../sandbox/env/store';
import type { SecretBox } from '../../secrets/crypto';

export type StepEnv = (skillKey: string, declaredEnv: readonly string[]) => Promise<Record<string, string>>;

export const skillStepEnv =
  (deps: { db: AppDb; secrets: SecretBox }, configId: string): StepEnv =>
  async (skillKey, declaredEnv) =>
    (await loadEnvFor(deps.db, deps.secrets, { principal: null, sandboxConfig: { id: configId }, skill: { key: skillKey, declaredEnv } })).env;
