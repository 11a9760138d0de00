import { api } from '@/lib/api/contracts';
import { handle } from '@/lib/http/handler';
import { getJob, jobLogText, readJobLogs } from '@/lib/jobs';

export const GET = handle(api.jobLogs, async ({ services, params, query }) => {
  const job = await getJob(services.database, params.id);
  if (query.format === 'text') {
    return new Response(jobLogText(services.database, job.id), {
      headers: {
        'content-type': 'text/plain; charset=utf-8',
        'content-disposition': `attachment; filename="job-${job.kind}-${job.id.slice(0, 8)}.log"`,
        'cache-control': 'no-store',
      },
    });
  }
  return { items: await readJobLogs(services.database, job.id, query.after, query.limit) };
});
