// A bundle config's installed skills, put into each new sandbox when it starts: the active
// generation's skill versions from the catalog's stored copies, each installed and verified the
// way the install job proved it in a maintenance sandbox. The log of a start is not kept; a
// failure names the skill, the reason and the step's last output.
import type { AppDb } from '@/db/client';
import { AppError } from '../../core/errors';
import { logger } from '../../core/logger';
import { activeImage } from '../../sandbox/images/images';
import { BUNDLE_LABEL } from '../../sandbox/images/snapshot-names';
import type { StartPreparer } from '../../sandbox/instances/start-prep';
import type { SecretBox } from '../../secrets/crypto';
import { SANDBOX_RUNTIME_ENV } from '../plan/plan';
import { skillStepEnv } from '../steps/skill-step-env';
import { installSkillInto } from '../steps/skill-steps';
import { backendTarget } from '../steps/target';

/** Every skill of a start together; pip and npm downloads of a cold sandbox dominate it. */
const START_BUDGET_MS = 20 * 60_000;
const TAIL_LINES = 12;

export function bundleStarter(deps: { db: AppDb; dataDir: string; secrets: SecretBox }): StartPreparer {
  return async (row) => {
    if (row.backend === 'docker') return null;
    const active = await activeImage(deps.db, row.id);
    if (!active?.imageId) return null;
    const skills = active.skills;
    return {
      env: skills.length ? { ...SANDBOX_RUNTIME_ENV } : {},
      labels: { [BUNDLE_LABEL]: active.imageId },
      async apply(backend, sandboxId) {
        const t = backendTarget(backend, sandboxId);
        const signal = AbortSignal.timeout(START_BUDGET_MS);
        for (const s of skills) {
          const tail: string[] = [];
          const f = await installSkillInto(t, { ...deps, stepEnv: skillStepEnv(deps, row.id) }, s, {
            signal,
            log: (line) => {
              tail.push(line);
              if (tail.length > TAIL_LINES) tail.shift();
            },
            stage: async () => {},
            running: () => {},
          });
          if (f) {
            throw new AppError('sandbox_error', `The new sandbox could not get ${s.skillKey} ${s.version} (${f.code} at ${f.stage}): ${f.message}`, {
              hint: `Generation ${active.generation} of ${row.name} installs its skills at every start. Retry, or remove the skill from the config if its install no longer works here.`,
              details: { skillKey: s.skillKey, reason: f.code, stage: f.stage, log: tail },
            });
          }
        }
        if (skills.length)
          logger.info('skills installed into a new sandbox', { config: row.id, sandbox: sandboxId, generation: active.generation, skills: skills.length });
      },
    };
  };
}
