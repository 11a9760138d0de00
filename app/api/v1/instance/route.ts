import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { instanceInfo } from '@/lib/instance';

export const GET = handle(api.instance, async ({ services }) => instanceInfo(services));
