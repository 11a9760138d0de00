import { agentIdParams } from '../../agents/schema';
import { defineContract } from '../../http/contract';

/** The agent's version as server-sent events, for gateways that mirror its skills. */
export const agentEventsApi = {
  agentEvents: defineContract({
    method: 'GET',
    path: '/api/v1/agents/{id}/events',
    tag: 'Agent gateway',
    summary: "Server-sent events: `version` ({agentId, version}) at once and on every change of the agent's effective skills",
    description:
      'The version is the ETag of GET /api/v1/agents/{id}/skills and the id of each event. Resume with `Last-Event-ID` (or `?lastEventId=`): ' +
      'when it names the current version nothing is sent until the next change. Comments keep the connection alive; an `error` event ' +
      'ends the stream when the agent is deleted. A user or token holds at most SKILLDOCK_STREAMS_PER_USER streams (429 past it).',
    permission: 'agents.read',
    agentGateway: true,
    params: agentIdParams,
    produces: 'text/event-stream',
  }),
} as const;
