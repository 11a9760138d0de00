import 'server-only';
import { agentSkillRefs, effectiveOf } from '../../agents/service';
import { canReadCommands, requireAgentPrincipal, requirePermission } from '../../auth/actor';
import { checkOutput } from '../../http/invoke';
import { defineOperation } from '../../http/operation';
import { decideApproval, getApproval, listApprovals } from '../../policy/approvals/approvals';
import { policyPool } from '../../policy/engine/pool';
import { type ExecDeps, execForAgent } from '../../policy/exec/exec';
import { agentExecLog, readExecLog } from '../../policy/exec/log';
import { agentPolicy, createProfile, deleteProfile, getProfile, listProfiles, updateProfile } from '../../policy/profiles/store';
import { denyGroupList, policyEngine, presetDefs } from '../../policy/runtime';
import { evaluateCommand, replayCommands } from '../../policy/service';
import type { Services } from '../../services';
import { getPolicySettings, updatePolicySettings } from '../../settings';
import { api } from '../contracts';
import { agentsDeps } from './agents';

export const policyDeps = (s: Services): ExecDeps => ({
  db: s.database.db,
  presets: presetDefs(),
  engine: policyEngine,
  instances: s.sandboxes,
  routes: s.execRoutes,
  decisions: s.approvals,
  settings: () => getPolicySettings(s.database.db),
  agentSkills: async (id) => agentSkillRefs(await effectiveOf(agentsDeps(s), id)),
});

/** Risk profiles, the tester and replay, approvals, the exec log and the gateway's exec. */
export const policyOps = {
  listProfiles: defineOperation(api.listProfiles, async ({ services }) => listProfiles(policyDeps(services))),
  createProfile: defineOperation(api.createProfile, async ({ services, actor, body }) => createProfile(policyDeps(services), actor, body)),
  getProfile: defineOperation(api.getProfile, async ({ services, params }) => getProfile(policyDeps(services), params.name)),
  updateProfile: defineOperation(api.updateProfile, async ({ services, actor, params, body }) => updateProfile(policyDeps(services), actor, params.name, body)),
  deleteProfile: defineOperation(api.deleteProfile, async ({ services, actor, params }) => deleteProfile(policyDeps(services), actor, params.name)),
  listDenyGroups: defineOperation(api.listDenyGroups, async () => ({ items: denyGroupList() })),
  // The tester and replay decide in a worker thread with a time budget, never on the event loop.
  evaluateCommand: defineOperation(api.evaluateCommand, async ({ services, body }) =>
    evaluateCommand({ ...policyDeps(services), offload: policyPool() }, body),
  ),
  replayCommands: defineOperation(api.replayCommands, async ({ services, actor, body }) => {
    // Replaying an agent's exec log answers its commands: the same permission as reading the log.
    if (!body.commands && body.agentId && !canReadCommands(actor, body.agentId)) requirePermission(actor, 'policy.commands');
    return replayCommands({ ...policyDeps(services), offload: policyPool() }, body);
  }),
  policySettings: defineOperation(api.policySettings, async ({ services }) => getPolicySettings(services.database.db)),
  updatePolicySettings: defineOperation(api.updatePolicySettings, async ({ services, actor, body }) => updatePolicySettings(services.database.db, actor, body)),
  listApprovals: defineOperation(api.listApprovals, async ({ services, query }) =>
    listApprovals({ db: services.database.db, decisions: services.approvals }, query),
  ),
  getApproval: defineOperation(api.getApproval, async ({ services, params }) =>
    getApproval({ db: services.database.db, decisions: services.approvals }, params.id),
  ),
  approveExec: defineOperation(api.approveExec, async ({ services, actor, params, body }) =>
    decideApproval({ db: services.database.db, decisions: services.approvals }, actor, params.id, 'approved', body.note),
  ),
  rejectExec: defineOperation(api.rejectExec, async ({ services, actor, params, body }) =>
    decideApproval({ db: services.database.db, decisions: services.approvals }, actor, params.id, 'rejected', body.note),
  ),
  agentPolicy: defineOperation(api.agentPolicy, async ({ services, params }) => {
    const p = await agentPolicy(policyDeps(services), params.id);
    return { agentId: p.agentId, profile: p.profile, overrides: p.overrides, rules: p.rules };
  }),
  agentExecLog: defineOperation(api.agentExecLog, async ({ services, actor, params, query }) => {
    const log = await agentExecLog(services.database.db, params.id, query);
    if (canReadCommands(actor, params.id)) return log;
    return { items: log.items.map((r) => ({ ...r, command: null, segment: null })) };
  }),
  execLog: defineOperation(api.execLog, async ({ services, actor, query }) => {
    const log = await readExecLog(services.database.db, query);
    return { items: log.items.map((r) => (canReadCommands(actor, r.agentId) ? r : { ...r, command: null, segment: null })) };
  }),
  // The REST door answers 202 while an approval is pending (approval mode `202`); the console's door
  // gets the same JSON.
  agentExec: defineOperation(api.agentExec, async ({ services, actor, params, body, req }) => {
    requireAgentPrincipal(actor, params.id);
    const { status, ...out } = await execForAgent(policyDeps(services), actor, params.id, body);
    if (!req || status === 200) return out;
    checkOutput(api.agentExec, out);
    return new Response(JSON.stringify(out), { status, headers: { 'content-type': 'application/json' } });
  }),
  agentExecApproval: defineOperation(api.agentExecApproval, async ({ services, params }) =>
    getApproval({ db: services.database.db, decisions: services.approvals }, params.approvalId, params.id),
  ),
};
