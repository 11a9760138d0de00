import { ops } from '@/lib/api/operations';
import { route } from '@/lib/http/route';

export const dynamic = 'force-dynamic';

export const GET = route(ops.agentEvents);
