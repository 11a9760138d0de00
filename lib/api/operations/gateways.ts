import 'server-only';
import { adopt, adoptPreview } from '../../gateways/adopt';
import { defineOperation } from '../../http/operation';
import { api } from '../contracts';

/** Gateways: connect, test, adopt, drift, sync. */
export const gatewayOps = {
  listGateways: defineOperation(api.listGateways, async ({ services }) => services.gateways.list()),
  createGateway: defineOperation(api.createGateway, async ({ services, actor, body }) => services.gateways.create(actor, body)),
  getGateway: defineOperation(api.getGateway, async ({ services, params }) => services.gateways.get(params.id)),
  updateGateway: defineOperation(api.updateGateway, async ({ services, actor, params, body }) => services.gateways.update(actor, params.id, body)),
  deleteGateway: defineOperation(api.deleteGateway, async ({ services, actor, params }) => services.gateways.remove(actor, params.id)),
  testGateway: defineOperation(api.testGateway, async ({ services, params }) => services.gateways.test(params.id)),
  adoptGateway: defineOperation(api.adoptGateway, async ({ services, actor, params, query, body }) => {
    if (query.preview === 'true') return adoptPreview(services.gateways, params.id, body.agentIds);
    const out = await adopt(services.gateways, actor, params.id, body.agentIds);
    return { ...out, gateway: await services.gateways.get(params.id) };
  }),
  gatewayDrift: defineOperation(api.gatewayDrift, async ({ services, params }) => services.gateways.checkDrift(params.id)),
  syncGateway: defineOperation(api.syncGateway, async ({ services, actor, params, query }) =>
    query.dryRun === 'true' ? services.gateways.previewSync(params.id) : services.gateways.syncNow(actor, params.id),
  ),
  listFolderClients: defineOperation(api.listFolderClients, async ({ services, query }) => services.gateways.folderClients(query.agentId)),
  forgetFolderClient: defineOperation(api.forgetFolderClient, async ({ services, actor, params }) =>
    services.gateways.forgetFolderClient(actor, params.agentId, params.clientId),
  ),
};
