import { api } from '@/lib/api/contracts';
import { setGithubChannel } from '@/lib/github/channel';
import { handle } from '@/lib/http/handler';

export const POST = handle(api.githubChannel, async ({ services, actor, body }) => setGithubChannel(services.database.db, actor, body));
