import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { getJob, jobEventStream } from '@/lib/jobs';

export const dynamic = 'force-dynamic';

export const GET = handle(api.jobEvents, async ({ services, params, req }) => {
  await getJob(services.database, params.id);
  const header = req.headers.get('last-event-id') ?? new URL(req.url).searchParams.get('lastEventId') ?? '0';
  const after = /^\d{1,15}$/.test(header) ? Number(header) : 0;
  return jobEventStream(services.database, services.hub, params.id, after, req.signal);
});
