import { ops } from '@/lib/api/operations';
import { route } from '@/lib/http/route';

export const GET = route(ops.getSandboxConfig);
export const PATCH = route(ops.updateSandboxConfig);
export const DELETE = route(ops.deleteSandboxConfig);
