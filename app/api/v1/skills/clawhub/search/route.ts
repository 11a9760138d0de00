import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { getSkillsSettings } from '@/lib/settings/store';
import { createClawhubClient } from '@/lib/skills/remote';

export const GET = handle(api.clawhubSearch, async ({ services, query }) => {
  const settings = await getSkillsSettings(services.database.db);
  return createClawhubClient({ baseUrl: settings.clawhubBaseUrl }).search(query.q, query.limit);
});
