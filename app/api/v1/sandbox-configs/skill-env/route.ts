import { ops } from '@/lib/api/operations';
import { route } from '@/lib/http/route';

export const GET = route(ops.listSkillEnv);
export const PUT = route(ops.setSkillEnv);
export const DELETE = route(ops.unsetSkillEnv);
