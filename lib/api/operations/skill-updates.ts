import 'server-only';
import { defineOperation } from '../../http/operation';
import { enqueue } from '../../jobs';
import { requestSkillUpdateCheck, skillUpdateApplyJob } from '../../skills/updates/jobs';
import { listUpdates, lockFromDb, setUpdatePolicy, updateDetail } from '../../skills/updates/view';
import { api } from '../contracts';

/** Update checks and updates of imported skills, their policy and the lock. */
export const skillUpdateOps = {
  listSkillUpdates: defineOperation(api.listSkillUpdates, async ({ services }) => listUpdates(services.database.db)),
  skillUpdateDiff: defineOperation(api.skillUpdateDiff, async ({ services, query }) => updateDetail(services.database.db, query.slug)),
  checkSkillUpdates: defineOperation(api.checkSkillUpdates, async ({ services, actor, body }) => {
    const { job } = await requestSkillUpdateCheck(services.database, actor, { slugs: body.slugs });
    return job;
  }),
  applySkillUpdates: defineOperation(api.applySkillUpdates, async ({ services, actor, body }) =>
    enqueue(services.database, actor, skillUpdateApplyJob, body, { trusted: true }),
  ),
  setSkillUpdatePolicy: defineOperation(api.setSkillUpdatePolicy, async ({ services, actor, body }) => {
    const out = await setUpdatePolicy(services.database.db, actor, body);
    await services.skills.changed();
    return out;
  }),
  skillsLock: defineOperation(api.skillsLock, async ({ services }) => lockFromDb(services.database.db)),
};
