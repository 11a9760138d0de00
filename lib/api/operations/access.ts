import 'server-only';
import { systemActor } from '../../auth';
import { defineOperation } from '../../http/operation';
import { instanceInfo } from '../../instance';
import { api } from '../contracts';
import { buildOpenApi } from '../openapi';

/** First-run setup, the session, the instance, users, API tokens and the audit log. */
export const accessOps = {
  setupStatus: defineOperation(api.setupStatus, async ({ services }) => ({ needed: await services.access.setupNeeded() })),
  setup: defineOperation(api.setup, async ({ services, body, meta }) => {
    const { token, ...input } = body;
    return services.access.claimFirstRun(token, input, { ...systemActor, ...meta });
  }),

  me: defineOperation(api.me, async ({ actor }) => ({
    kind: actor.kind,
    userId: actor.userId,
    tokenId: actor.tokenId,
    email: actor.email,
    role: actor.role,
    permissions: [...actor.permissions].sort(),
  })),
  changeOwnPassword: defineOperation(api.changeOwnPassword, async ({ services, actor, body }) =>
    services.access.changeOwnPassword(actor, body.currentPassword, body.newPassword),
  ),
  instance: defineOperation(api.instance, async ({ services }) => instanceInfo(services)),
  openapi: defineOperation(api.openapi, async ({ services }) => buildOpenApi(services.version)),

  listUsers: defineOperation(api.listUsers, async ({ services }) => ({ items: await services.access.listUsers() })),
  createUser: defineOperation(api.createUser, async ({ services, actor, body }) => services.access.createUser(actor, body)),
  updateUser: defineOperation(api.updateUser, async ({ services, actor, params, body }) => services.access.updateUser(actor, params.id, body)),
  resetPassword: defineOperation(api.resetPassword, async ({ services, actor, params, body }) =>
    services.access.resetPassword(actor, params.id, body.password),
  ),

  listTokens: defineOperation(api.listTokens, async ({ services, actor }) => ({ items: await services.access.listTokens(actor.userId!) })),
  createToken: defineOperation(api.createToken, async ({ services, actor, body }) => services.access.createToken(actor, body)),
  revokeToken: defineOperation(api.revokeToken, async ({ services, actor, params }) => services.access.revokeToken(actor, params.id)),

  listAudit: defineOperation(api.listAudit, async ({ services, query }) => services.access.listAudit(query)),
  auditActions: defineOperation(api.auditActions, async ({ services }) => ({ items: await services.access.auditActions() })),
};
