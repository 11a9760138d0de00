import 'server-only';
import { agentEventsResponse, lastEventIdOf } from '../../agents/events';
import { agentWatcher, effectiveOf } from '../../agents/service';
import { defineOperation } from '../../http/operation';
import { agentEventsApi } from '../contracts/agent-events';
import { agentsDeps } from './agents';

export const agentEventOps = {
  agentEvents: defineOperation(
    agentEventsApi.agentEvents,
    async ({ services, actor, params, req }) => {
      const deps = agentsDeps(services);
      // A missing agent answers 404 before the stream opens.
      await effectiveOf(deps, params.id);
      const r = req!; // REST only: the route always passes its request
      return agentEventsResponse(agentWatcher(deps), params.id, lastEventIdOf(r), r.signal, {
        owner: actor.userId ? `user:${actor.userId}` : actor.tokenId ? `token:${actor.tokenId}` : `label:${actor.label}`,
        maxPerOwner: services.config.SKILLDOCK_STREAMS_PER_USER,
      });
    },
    { restOnly: true },
  ),
};
