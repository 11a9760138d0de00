import { ops } from '@/lib/api/operations';
import { route } from '@/lib/http/route';

export const GET = route(ops.listAgentEnv);
export const PUT = route(ops.setAgentEnv);
export const DELETE = route(ops.unsetAgentEnv);
