import { ops } from '@/lib/api/operations';
import { route } from '@/lib/http/route';

export const GET = route(ops.listMyEnv);
export const PUT = route(ops.setMyEnv);
export const DELETE = route(ops.unsetMyEnv);
