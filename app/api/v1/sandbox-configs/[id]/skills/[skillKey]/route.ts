import { ops } from '@/lib/api/operations';
import { route } from '@/lib/http/route';

export const GET = route(ops.getConfigSkill);
export const PATCH = route(ops.patchConfigSkill);
export const DELETE = route(ops.removeConfigSkill);
