import 'server-only';
import { distinctAuditActions, listAudit } from '../../audit';
import {
  changeOwnPassword,
  claimFirstRun,
  createToken,
  createUser,
  listTokens,
  listUsers,
  resetPassword,
  revokeToken,
  systemActor,
  updateUser,
  userCount,
} from '../../auth';
import { defineOperation } from '../../http/operation';
import { instanceInfo } from '../../instance';
import { api } from '../contracts';
import { buildOpenApi } from '../openapi';

/** First-run setup, the session, the instance, users, API tokens and the audit log. */
export const accessOps = {
  setupStatus: defineOperation(api.setupStatus, async ({ services }) => ({ needed: (await userCount(services.database.db)) === 0 })),
  setup: defineOperation(api.setup, async ({ services, body, meta }) => {
    const { token, ...input } = body;
    return claimFirstRun(services.database.db, services.config.dataDir, token, input, { ...systemActor, ...meta });
  }),

  me: defineOperation(api.me, async ({ actor }) => ({
    kind: actor.kind,
    userId: actor.userId,
    tokenId: actor.tokenId,
    email: actor.email,
    role: actor.role,
    permissions: [...actor.permissions].sort(),
  })),
  changeOwnPassword: defineOperation(api.changeOwnPassword, async ({ services, actor, body }) => {
    await changeOwnPassword(services.database.db, actor, body.currentPassword, body.newPassword);
    services.users.invalidate(actor.userId!);
  }),
  instance: defineOperation(api.instance, async ({ services }) => instanceInfo(services)),
  openapi: defineOperation(api.openapi, async ({ services }) => buildOpenApi(services.version)),

  listUsers: defineOperation(api.listUsers, async ({ services }) => ({ items: await listUsers(services.database.db) })),
  createUser: defineOperation(api.createUser, async ({ services, actor, body }) => createUser(services.database.db, actor, body)),
  // The change is announced to every replica inside its transaction; this replica forgets it at once.
  updateUser: defineOperation(api.updateUser, async ({ services, actor, params, body }) => {
    const out = await updateUser(services.database.db, actor, params.id, body);
    services.users.invalidate(params.id);
    return out;
  }),
  resetPassword: defineOperation(api.resetPassword, async ({ services, actor, params, body }) => {
    await resetPassword(services.database.db, actor, params.id, body.password);
    services.users.invalidate(params.id);
  }),

  listTokens: defineOperation(api.listTokens, async ({ services, actor }) => ({ items: await listTokens(services.database.db, actor.userId!) })),
  createToken: defineOperation(api.createToken, async ({ services, actor, body }) => createToken(services.database.db, actor, body)),
  revokeToken: defineOperation(api.revokeToken, async ({ services, actor, params }) => revokeToken(services.database.db, actor, params.id)),

  listAudit: defineOperation(api.listAudit, async ({ services, query }) => listAudit(services.database.db, query)),
  auditActions: defineOperation(api.auditActions, async ({ services }) => ({ items: await distinctAuditActions(services.database.db) })),
};
