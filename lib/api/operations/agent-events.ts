import 'server-only';
import { agentEventsResponse, lastEventIdOf } from '../../agents/events';
import { agentWatcher, effectiveOf } from '../../agents/service';
import { agentsDeps } from '../../agents-deps';
import { clientReportOf, recordFolderClient } from '../../gateways/folder-clients';
import { defineOperation } from '../../http/operation';
import { agentEventsApi } from '../contracts/agent-events';

export const agentEventOps = {
  agentEvents: defineOperation(
    agentEventsApi.agentEvents,
    async ({ services, actor, params, req }) => {
      const deps = agentsDeps(services);
      // A missing agent answers 404 before the stream opens.
      await effectiveOf(deps, params.id);
      const r = req!; // REST only: the route always passes its request
      // A `skilldock sync` client on the stream follows events; each heartbeat shows it is still there.
      const report = clientReportOf(r);
      const touch = report ? () => recordFolderClient(services.database.db, params.id, report, { version: null, via: actor.label, mode: 'events' }) : null;
      await touch?.();
      return agentEventsResponse(agentWatcher(deps), params.id, lastEventIdOf(r), r.signal, {
        owner: actor.userId ? `user:${actor.userId}` : actor.tokenId ? `token:${actor.tokenId}` : `label:${actor.label}`,
        maxPerOwner: services.config.SKILLDOCK_STREAMS_PER_USER,
        ...(touch ? { onHeartbeat: () => void touch().catch(() => undefined) } : {}),
      });
    },
    { restOnly: true },
  ),
};
