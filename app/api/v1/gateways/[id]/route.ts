import { ops } from '@/lib/api/operations';
import { route } from '@/lib/http/route';

export const GET = route(ops.getGateway);
export const PATCH = route(ops.updateGateway);
export const DELETE = route(ops.deleteGateway);
