import { ops } from '@/lib/api/operations';
import { route } from '@/lib/http/route';

export const GET = route(ops.listSandboxConfigs);
export const POST = route(ops.createSandboxConfig);
