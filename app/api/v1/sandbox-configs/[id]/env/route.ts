import { ops } from '@/lib/api/operations';
import { route } from '@/lib/http/route';

export const GET = route(ops.listConfigEnv);
export const PUT = route(ops.setConfigEnv);
export const DELETE = route(ops.unsetConfigEnv);
