import { api } from '@/lib/api/contracts';
import { buildOpenApi } from '@/lib/api/openapi';
import { handle } from '@/lib/http/handler';

export const GET = handle(api.openapi, async ({ services }) => buildOpenApi(services.version));
