import 'server-only';
import type { Actor } from '../../auth/actor';
import { loadGithubContext } from '../../github/service';
import { setGithubChannel } from '../../github/updates/channel';
import { browseReleases, githubOverview } from '../../github/views';
import { defineOperation } from '../../http/operation';
import { enqueue } from '../../jobs';
import { githubRepairJob, githubRollbackJob } from '../../packages/job-kinds';
import type { Services } from '../../services';
import { publicGithubSettings, updateGithubSettings } from '../../settings';
import { api } from '../contracts';

const context = (services: Services, actor: Actor) =>
  loadGithubContext(services.database.db, services.secrets, { runtimeDir: services.config.runtimeDir, actor: actor.label, version: services.version });

/** GitHub-release packages: the overview, release browsing, rollback, channel, repair and settings. */
export const githubOps = {
  githubPackages: defineOperation(api.githubPackages, async ({ services, actor }) => githubOverview(await context(services, actor))),
  githubReleases: defineOperation(api.githubReleases, async ({ services, actor, query }) => browseReleases(await context(services, actor), query)),
  githubRollback: defineOperation(api.githubRollback, async ({ services, actor, body }) =>
    enqueue(services.database, actor, githubRollbackJob, body, { trusted: true }),
  ),
  githubChannel: defineOperation(api.githubChannel, async ({ services, actor, body }) => setGithubChannel(services.database.db, actor, body)),
  githubRepair: defineOperation(api.githubRepair, async ({ services, actor }) => enqueue(services.database, actor, githubRepairJob, {}, { trusted: true })),
  githubSettings: defineOperation(api.githubSettings, async ({ services }) => publicGithubSettings(services.database.db)),
  updateGithubSettings: defineOperation(api.updateGithubSettings, async ({ services, actor, body }) =>
    updateGithubSettings(services.database.db, services.secrets, actor, body),
  ),
};
