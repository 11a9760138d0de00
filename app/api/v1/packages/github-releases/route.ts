import { api } from '@/lib/api/contracts';
import { loadGithubContext } from '@/lib/github/service';
import { browseReleases } from '@/lib/github/views';
import { handle } from '@/lib/http/handler';

export const GET = handle(api.githubReleases, async ({ services, actor, query }) =>
  browseReleases(await loadGithubContext(services.database.db, services.secrets, { runtimeDir: services.config.runtimeDir, actor: actor.label, version: services.version }), query),
);
