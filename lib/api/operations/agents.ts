import 'server-only';
import { previewAllowlists, saveAllowlists } from '../../agents/batch';
import { gatewayBundle } from '../../agents/gateway-bundle';
import { effectiveOf, etagOf, explainAgent, gatewayFile, gatewayJson, gatewaySkill, gatewayView, matchesEtag } from '../../agents/service';
import { type AgentStoreDeps, createAgent, deleteAgent, getAgent, getDefaults, listAgents, patchAgent, putDefaults } from '../../agents/store';
import { agentSummaries, allowlistMatrix, budgetPlan, skillAgents } from '../../agents/views';
import { agentsDeps } from '../../agents-deps';
import { clientReportOf, recordFolderClient } from '../../gateways/folder-clients';
import { checkOutput, outputChecked } from '../../http/invoke';
import { defineOperation } from '../../http/operation';
import { loadRow } from '../../sandbox/config/store';
import { agentEnvOwner } from '../../sandbox/env/resolve';
import { listEnv, setEnv, unsetEnv } from '../../sandbox/env/store';
import type { Services } from '../../services';
import { api } from '../contracts';

export const agentStoreDeps = (s: Services): AgentStoreDeps => ({
  db: s.database.db,
  knownSkills: async () => new Set((await s.skills.snapshot()).skills.map((k) => k.name)),
});

type AgentEnvScope = { level: 'personal_sandbox'; configId: string } | { level: 'personal_skill'; skillKey: string };
const agentEnvScope = (agentId: string, b: AgentEnvScope) =>
  b.level === 'personal_sandbox'
    ? { level: b.level, userId: agentEnvOwner(agentId), configId: b.configId }
    : { level: b.level, userId: agentEnvOwner(agentId), skillKey: b.skillKey };

/** Agents, the defaults, batch allowlist edits, and the gateway's reads. */
export const agentOps = {
  listAgents: defineOperation(api.listAgents, async ({ services }) => listAgents(agentStoreDeps(services))),
  createAgent: defineOperation(api.createAgent, async ({ services, actor, body }) => createAgent(agentStoreDeps(services), actor, body)),
  getAgentDefaults: defineOperation(api.getAgentDefaults, async ({ services }) => getDefaults(agentStoreDeps(services))),
  putAgentDefaults: defineOperation(api.putAgentDefaults, async ({ services, actor, body }) => putDefaults(agentStoreDeps(services), actor, body)),
  previewAllowlists: defineOperation(api.previewAllowlists, async ({ services, body }) => previewAllowlists(agentsDeps(services), body.changes)),
  saveAllowlists: defineOperation(api.saveAllowlists, async ({ services, actor, body }) => saveAllowlists(agentsDeps(services), actor, body.changes)),
  getAgent: defineOperation(api.getAgent, async ({ services, params }) => getAgent(agentStoreDeps(services), params.id)),
  updateAgent: defineOperation(api.updateAgent, async ({ services, actor, params, body }) => patchAgent(agentStoreDeps(services), actor, params.id, body)),
  deleteAgent: defineOperation(api.deleteAgent, async ({ services, actor, params }) => deleteAgent(agentStoreDeps(services), actor, params.id)),
  // On the REST door the answer carries its version as the ETag, and a matching If-None-Match is
  // answered 304 without a body; the console's door gets the same JSON without the header.
  // The answer is kept per version: a 304 builds no body, a 200 sends the JSON serialised once.
  agentSkills: defineOperation(api.agentSkills, async ({ services, actor, params, req }) => {
    const deps = agentsDeps(services);
    const report = clientReportOf(req);
    const e = await effectiveOf(deps, params.id);
    // A `skilldock sync` client holds this version once the pass it starts ends (a 304: already).
    if (report) await recordFolderClient(services.database.db, params.id, report, { version: e.version, via: actor.label });
    if (!req) return gatewayView(e);
    const headers = { etag: etagOf(e.version), 'cache-control': 'no-cache' };
    if (matchesEtag(req.headers.get('if-none-match'), e.version)) return new Response(null, { status: 304, headers });
    if (outputChecked()) checkOutput(api.agentSkills, gatewayView(e));
    return new Response(gatewayJson(deps, e), { status: 200, headers: { ...headers, 'content-type': 'application/json' } });
  }),
  agentSkill: defineOperation(api.agentSkill, async ({ services, params }) => gatewaySkill(agentsDeps(services), params.id, params.name)),
  agentSkillFile: defineOperation(api.agentSkillFile, async ({ services, params, query }) =>
    gatewayFile(agentsDeps(services), params.id, params.name, query.path),
  ),
  agentSkillBundle: defineOperation(api.agentSkillBundle, async ({ services, params, query }) =>
    gatewayBundle(agentsDeps(services), params.id, query.names.split(',')),
  ),
  explainAgent: defineOperation(api.explainAgent, async ({ services, params, query }) => explainAgent(agentsDeps(services), params.id, query.skill)),
  agentSummaries: defineOperation(api.agentSummaries, async ({ services }) => agentSummaries(agentsDeps(services))),
  allowlistMatrix: defineOperation(api.allowlistMatrix, async ({ services }) => allowlistMatrix(agentsDeps(services))),
  skillAgents: defineOperation(api.skillAgents, async ({ services, query }) => skillAgents(agentsDeps(services), query.name)),
  listAgentEnv: defineOperation(api.listAgentEnv, async ({ services, params }) => {
    const db = services.database.db;
    await getAgent(agentStoreDeps(services), params.id);
    const userId = agentEnvOwner(params.id);
    return { items: [...(await listEnv(db, { level: 'personal_sandbox', userId })), ...(await listEnv(db, { level: 'personal_skill', userId }))] };
  }),
  setAgentEnv: defineOperation(api.setAgentEnv, async ({ services, actor, params, body }) => {
    const db = services.database.db;
    await getAgent(agentStoreDeps(services), params.id);
    if (body.level === 'personal_sandbox') await loadRow(db, body.configId);
    return setEnv(db, services.secrets, actor, agentEnvScope(params.id, body), body.name, body.value);
  }),
  unsetAgentEnv: defineOperation(api.unsetAgentEnv, async ({ services, actor, params, body }) =>
    unsetEnv(services.database.db, actor, agentEnvScope(params.id, body), body.name),
  ),
  agentBudget: defineOperation(api.agentBudget, async ({ services, params, query }) => budgetPlan(agentsDeps(services), params.id, query)),
};
