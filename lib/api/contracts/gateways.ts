import { z } from 'zod';
import { adoptInput, adoptQuery, createGatewayInput, gatewayIdParams, patchGatewayInput, syncQuery } from '../../gateways/schema';
import { defineContract } from '../../http/contract';
import { adoptOut, adoptPreviewOut, driftOut, gatewayListOut, gatewayOut, gatewayStatusOut, syncOut } from '../gateway-schemas';

const tag = 'Gateways';

/** Agent gateways Skilldock drives: OpenClaw (a local state folder, a Docker container, or its RPC) and folder clients. */
export const gatewaysApi = {
  listGateways: defineContract({
    method: 'GET',
    path: '/api/v1/gateways',
    tag,
    summary: 'Every connected gateway with its status, drift count and last sync',
    permission: 'gateways.read',
    response: gatewayListOut,
  }),
  createGateway: defineContract({
    method: 'POST',
    path: '/api/v1/gateways',
    tag,
    summary:
      'Connect a gateway: `{name, kind: "openclaw", location: {type: "local", stateDir, cli?} | {type: "docker", container, stateDir, configId?|host?, cli?} | {type: "remote", url, token}}`',
    permission: 'gateways.write',
    body: createGatewayInput,
    response: gatewayOut,
    status: 201,
  }),
  getGateway: defineContract({
    method: 'GET',
    path: '/api/v1/gateways/{id}',
    tag,
    summary: 'One gateway',
    permission: 'gateways.read',
    params: gatewayIdParams,
    response: gatewayOut,
  }),
  updateGateway: defineContract({
    method: 'PATCH',
    path: '/api/v1/gateways/{id}',
    tag,
    summary: 'Change a gateway (name, location, auto sync, linked agents); send the revision you read',
    permission: 'gateways.write',
    params: gatewayIdParams,
    body: patchGatewayInput,
    response: gatewayOut,
  }),
  deleteGateway: defineContract({
    method: 'DELETE',
    path: '/api/v1/gateways/{id}',
    tag,
    summary: 'Disconnect a gateway (nothing in the gateway is changed)',
    permission: 'gateways.write',
    params: gatewayIdParams,
    response: z.object({ deleted: z.literal(true) }),
  }),
  testGateway: defineContract({
    method: 'POST',
    path: '/api/v1/gateways/{id}/test',
    tag,
    summary: "Test the connection: the gateway's version, its config read and validated",
    permission: 'gateways.write',
    params: gatewayIdParams,
    response: gatewayStatusOut,
  }),
  adoptGateway: defineContract({
    method: 'POST',
    path: '/api/v1/gateways/{id}/adopt',
    tag,
    summary: "Take the gateway's agents, allowlists and skill entries into Skilldock (`?preview=true`: only say what would change)",
    permission: 'gateways.write',
    params: gatewayIdParams,
    query: adoptQuery,
    body: adoptInput,
    response: z.union([adoptPreviewOut, adoptOut]),
  }),
  gatewayDrift: defineContract({
    method: 'GET',
    path: '/api/v1/gateways/{id}/drift',
    tag,
    summary: "Ask the gateway what each linked agent sees and compare it with Skilldock (both sides' reasons per difference)",
    permission: 'gateways.read',
    params: gatewayIdParams,
    response: driftOut,
    // Each check starts the gateway's CLI once per agent (seconds each): bounded for readers.
    rateLimit: { key: 'user', max: 10, perSeconds: 60, unless: 'gateways.write' },
  }),
  syncGateway: defineContract({
    method: 'POST',
    path: '/api/v1/gateways/{id}/sync',
    tag,
    summary: 'Sync Skilldock into the gateway as a job (`?dryRun=true`: answer the diff of what would change)',
    permission: 'gateways.write',
    params: gatewayIdParams,
    query: syncQuery,
    response: syncOut,
    status: 202,
  }),
};
