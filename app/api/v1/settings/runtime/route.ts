import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { getRuntimeSettings, updateRuntimeSettings } from '@/lib/settings';

export const GET = handle(api.runtimeSettings, async ({ services }) => getRuntimeSettings(services.database.db));
export const PUT = handle(api.updateRuntimeSettings, async ({ services, actor, body }) => updateRuntimeSettings(services.database.db, actor, body));
