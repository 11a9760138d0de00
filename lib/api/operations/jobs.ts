import 'server-only';
import { defineOperation } from '../../http/operation';
import { cancelJob, describeJobKinds, enqueueByName, getJob, jobEventStream, jobLogText, readJobLogs, retryJob } from '../../jobs';
import { api } from '../contracts';

export const jobOps = {
  listJobs: defineOperation(api.listJobs, async ({ services, query }) => services.jobList.list(query)),
  jobKinds: defineOperation(api.jobKinds, async ({ services, actor }) => ({ items: describeJobKinds(services.jobKinds, actor) })),
  startJob: defineOperation(api.startJob, async ({ services, actor, body }) =>
    enqueueByName(services.database, services.jobKinds, actor, body.kind, body.params),
  ),
  getJob: defineOperation(api.getJob, async ({ services, params }) => getJob(services.database, params.id)),
  cancelJob: defineOperation(api.cancelJob, async ({ services, actor, params }) => cancelJob(services.database, actor, params.id)),
  retryJob: defineOperation(api.retryJob, async ({ services, actor, params }) => retryJob(services.database, services.jobKinds, actor, params.id)),
  jobLogs: defineOperation(
    api.jobLogs,
    async ({ services, params, query }) => {
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
    },
    { restOnly: true },
  ),
  jobEvents: defineOperation(
    api.jobEvents,
    async ({ services, actor, params, req }) => {
      await getJob(services.database, params.id);
      const r = req!; // REST only: the route always passes its request
      const header = r.headers.get('last-event-id') ?? new URL(r.url).searchParams.get('lastEventId') ?? '0';
      const after = /^\d{1,15}$/.test(header) ? Number(header) : 0;
      return jobEventStream(services.database, services.hub, params.id, after, r.signal, {
        owner: actor.userId ? `user:${actor.userId}` : actor.tokenId ? `token:${actor.tokenId}` : `label:${actor.label}`,
        maxPerOwner: services.config.SKILLDOCK_STREAMS_PER_USER,
      });
    },
    { restOnly: true },
  ),
};
