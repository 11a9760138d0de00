import 'server-only';
import { canReadCommands, requireAgentPrincipal, requirePermission } from '../../auth/actor';
import { checkOutput } from '../../http/invoke';
import { defineOperation } from '../../http/operation';
import { denyGroupList } from '../../policy/runtime';
import { api } from '../contracts';

/** Risk profiles, the tester and replay, approvals, the exec log and the gateway's exec. */
export const policyOps = {
  listProfiles: defineOperation(api.listProfiles, async ({ services }) => services.policy.listProfiles()),
  createProfile: defineOperation(api.createProfile, async ({ services, actor, body }) => services.policy.createProfile(actor, body)),
  getProfile: defineOperation(api.getProfile, async ({ services, params }) => services.policy.getProfile(params.name)),
  updateProfile: defineOperation(api.updateProfile, async ({ services, actor, params, body }) => services.policy.updateProfile(actor, params.name, body)),
  deleteProfile: defineOperation(api.deleteProfile, async ({ services, actor, params }) => services.policy.deleteProfile(actor, params.name)),
  listDenyGroups: defineOperation(api.listDenyGroups, async () => ({ items: denyGroupList() })),
  evaluateCommand: defineOperation(api.evaluateCommand, async ({ services, body }) => services.policy.evaluate(body)),
  replayCommands: defineOperation(api.replayCommands, async ({ services, actor, body }) => {
    // Replaying an agent's exec log answers its commands: the same permission as reading the log.
    if (!body.commands && body.agentId && !canReadCommands(actor, body.agentId)) requirePermission(actor, 'policy.commands');
    return services.policy.replay(body);
  }),
  policySettings: defineOperation(api.policySettings, async ({ services }) => services.policy.settings()),
  updatePolicySettings: defineOperation(api.updatePolicySettings, async ({ services, actor, body }) => services.policy.updateSettings(actor, body)),
  listApprovals: defineOperation(api.listApprovals, async ({ services, query }) => services.policy.listApprovals(query)),
  getApproval: defineOperation(api.getApproval, async ({ services, params }) => services.policy.getApproval(params.id)),
  approveExec: defineOperation(api.approveExec, async ({ services, actor, params, body }) =>
    services.policy.decideApproval(actor, params.id, 'approved', body.note),
  ),
  rejectExec: defineOperation(api.rejectExec, async ({ services, actor, params, body }) =>
    services.policy.decideApproval(actor, params.id, 'rejected', body.note),
  ),
  agentPolicy: defineOperation(api.agentPolicy, async ({ services, params }) => {
    const p = await services.policy.agentPolicy(params.id);
    return { agentId: p.agentId, profile: p.profile, overrides: p.overrides, rules: p.rules };
  }),
  agentExecLog: defineOperation(api.agentExecLog, async ({ services, actor, params, query }) => {
    const log = await services.policy.agentExecLog(params.id, query);
    if (canReadCommands(actor, params.id)) return log;
    return { items: log.items.map((r) => ({ ...r, command: null, segment: null })) };
  }),
  execLog: defineOperation(api.execLog, async ({ services, actor, query }) => {
    const log = await services.policy.execLog(query);
    return { items: log.items.map((r) => (canReadCommands(actor, r.agentId) ? r : { ...r, command: null, segment: null })) };
  }),
  // The REST door answers 202 while an approval is pending (approval mode `202`); the console's door
  // gets the same JSON.
  agentExec: defineOperation(api.agentExec, async ({ services, actor, params, body, req }) => {
    requireAgentPrincipal(actor, params.id);
    const { status, ...out } = await services.policy.exec(actor, params.id, body);
    if (!req || status === 200) return out;
    checkOutput(api.agentExec, out);
    return new Response(JSON.stringify(out), { status, headers: { 'content-type': 'application/json' } });
  }),
  agentExecApproval: defineOperation(api.agentExecApproval, async ({ services, params }) => services.policy.getApproval(params.approvalId, params.id)),
};
