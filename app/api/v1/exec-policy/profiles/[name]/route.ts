import { ops } from '@/lib/api/operations';
import { route } from '@/lib/http/route';

export const GET = route(ops.getProfile);
export const PATCH = route(ops.updateProfile);
export const DELETE = route(ops.deleteProfile);
