import { ops } from '@/lib/api/operations';
import { route } from '@/lib/http/route';

export const GET = route(ops.getAgent);
export const PATCH = route(ops.updateAgent);
export const DELETE = route(ops.deleteAgent);
