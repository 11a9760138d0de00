import 'server-only';
import { effectiveOf } from '../../agents/service';
import { adopt, adoptPreview } from '../../gateways/adopt';
import { forgetFolderClient, listFolderClients } from '../../gateways/folder-clients';
import { queueSync } from '../../gateways/jobs';
import { createGateway, deleteGateway, type GatewayStoreDeps, gatewayView, listGatewayRows, loadGateway, patchGateway } from '../../gateways/store';
import { runSync } from '../../gateways/sync';
import { defineOperation } from '../../http/operation';
import type { Services } from '../../services';
import { api } from '../contracts';
import { agentsDeps } from './agents';

const storeDeps = (s: Services): GatewayStoreDeps => ({
  db: s.database.db,
  box: s.secrets,
  checkLocation: (loc) => s.gateways.checkLocation(loc),
});

/** Gateways: connect, test, adopt, drift, sync. */
export const gatewayOps = {
  listGateways: defineOperation(api.listGateways, async ({ services }) => ({
    items: (await listGatewayRows(services.database.db)).map(gatewayView),
    roots: [...services.gateways.deps.roots],
  })),
  createGateway: defineOperation(api.createGateway, async ({ services, actor, body }) => createGateway(storeDeps(services), actor, body)),
  getGateway: defineOperation(api.getGateway, async ({ services, params }) => gatewayView(await loadGateway(services.database.db, params.id))),
  updateGateway: defineOperation(api.updateGateway, async ({ services, actor, params, body }) => patchGateway(storeDeps(services), actor, params.id, body)),
  deleteGateway: defineOperation(api.deleteGateway, async ({ services, actor, params }) => deleteGateway(storeDeps(services), actor, params.id)),
  testGateway: defineOperation(api.testGateway, async ({ services, params }) => services.gateways.test(params.id)),
  adoptGateway: defineOperation(api.adoptGateway, async ({ services, actor, params, query, body }) => {
    if (query.preview === 'true') return adoptPreview(services.gateways, params.id, body.agentIds);
    const out = await adopt(services.gateways, actor, params.id, body.agentIds);
    return { ...out, gateway: gatewayView(await loadGateway(services.database.db, params.id)) };
  }),
  gatewayDrift: defineOperation(api.gatewayDrift, async ({ services, params }) => services.gateways.checkDrift(params.id)),
  syncGateway: defineOperation(api.syncGateway, async ({ services, actor, params, query }) => {
    const row = await loadGateway(services.database.db, params.id);
    if (query.dryRun === 'true') {
      const svc = services.gateways;
      const out = await svc.withAccess(row, (a) => runSync(svc.desiredDeps, svc.syncTarget(row, a), { dryRun: true }));
      return {
        dryRun: true as const,
        changes: out.changes,
        configChanges: out.plan.configChanges,
        folders: out.plan.folders,
        conflicts: out.plan.conflicts,
        notes: out.plan.notes,
        readOnly: out.readOnly,
        patch: out.patchText,
      };
    }
    const job = await queueSync(services.database, actor, row.id, 'sync now');
    return { dryRun: false as const, jobId: job.id, coalesced: job.coalesced };
  }),
  listFolderClients: defineOperation(api.listFolderClients, async ({ services, query }) => {
    const deps = agentsDeps(services);
    const current = (id: string) =>
      effectiveOf(deps, id).then(
        (e) => e.version,
        () => null,
      );
    return { clients: await listFolderClients(services.database.db, current, query.agentId) };
  }),
  forgetFolderClient: defineOperation(api.forgetFolderClient, async ({ services, actor, params }) =>
    forgetFolderClient(services.database.db, actor, params.agentId, params.clientId),
  ),
};
