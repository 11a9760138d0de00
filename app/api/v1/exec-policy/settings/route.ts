import { ops } from '@/lib/api/operations';
import { route } from '@/lib/http/route';

export const GET = route(ops.policySettings);
export const PUT = route(ops.updatePolicySettings);
