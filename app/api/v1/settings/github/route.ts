import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { publicGithubSettings, updateGithubSettings } from '@/lib/settings';

export const GET = handle(api.githubSettings, async ({ services }) => publicGithubSettings(services.database.db));
export const PUT = handle(api.updateGithubSettings, async ({ services, actor, body }) => updateGithubSettings(services.database.db, services.secrets, actor, body));
