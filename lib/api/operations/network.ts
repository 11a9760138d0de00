import 'server-only';
import { AppError } from '../../core/errors';
import { defineOperation } from '../../http/operation';
import { backendCaveat, backendGaps } from '../../network/policy/backend-gaps';
import { compilePolicy } from '../../network/policy/compile';
import { decideDestination } from '../../network/policy/decide';
import { parseDestination } from '../../network/policy/destination';
import { storedPolicy } from '../../network/policy/open';
import { ALWAYS_BLOCKED_V4, ALWAYS_BLOCKED_V6, HOST_NOTE, PRIVATE_V4, PRIVATE_V6 } from '../../network/policy/ranges';
import { INSTALL_SOURCES } from '../../network/policy/sources';
import { validatePolicy } from '../../network/policy/validate';
import { draftPolicy, maskedPolicy, savePolicy } from '../../network/store';
import { loadRow } from '../../sandbox/config/store';
import type { ConfigRow } from '../../sandbox/config/view';
import { applyToRunning, updateFirewall } from '../../sandbox/network/apply';
import { enforcementOf } from '../../sandbox/network/enforcement';
import type { Services } from '../../services';
import { api } from '../contracts';

function networkView(s: Services, row: ConfigRow) {
  return {
    policy: maskedPolicy(row) as unknown as {
      denyEgressByDefault: boolean;
      allowOut: string[];
      denyOut: string[];
      cubeRules: Record<string, unknown>[];
      e2bHostRules: Record<string, unknown>[];
    },
    ...enforcementOf(row, s.network),
    backendGaps: backendGaps(row.backend),
    alwaysBlocked: [...ALWAYS_BLOCKED_V4, ...ALWAYS_BLOCKED_V6, { cidr: 'host', why: HOST_NOTE }],
    privateRanges: [...PRIVATE_V4, ...PRIVATE_V6],
    installSources: INSTALL_SOURCES.map((x) => ({ manager: x.manager, label: x.label, entries: [...x.entries] })),
  };
}

/** The network policy of sandbox configs. */
export const networkOps = {
  validateNetworkPolicy: defineOperation(api.validateNetworkPolicy, async ({ body }) => {
    const r = validatePolicy(body.backend, body.policy);
    return { valid: r.policy !== null, policy: r.policy as never, issues: r.issues };
  }),
  getConfigNetwork: defineOperation(api.getConfigNetwork, async ({ services, params }) =>
    networkView(services, await loadRow(services.database.db, params.id)),
  ),
  setConfigNetwork: defineOperation(api.setConfigNetwork, async ({ services, actor, params, body }) => {
    const row = await loadRow(services.database.db, params.id);
    // The firewall takes the rules first: when it refuses, nothing is saved and the old rules stay in
    // force. Should the save then fail, the holder's periodic re-read of saved policies puts the old
    // rules back within a lease lifetime.
    let firewallUpdated = false;
    const after = await savePolicy(services.database.db, services.secrets, actor, row, body.policy, async (next) => {
      firewallUpdated = await updateFirewall(services.sandboxes, next);
    });
    const sandboxes = await applyToRunning(services.sandboxes, after, firewallUpdated);
    return { ...networkView(services, after), sandboxes };
  }),
  testConfigNetwork: defineOperation(api.testConfigNetwork, async ({ services, params, body }) => {
    const row = await loadRow(services.database.db, params.id);
    const dest = parseDestination(body.destination);
    if ('message' in dest) throw new AppError('validation', dest.message, { issues: [{ path: 'destination', message: dest.message }] });
    // A draft is judged, never stored or applied: the operator tries rules before a save puts them in force.
    const basis = body.policy === undefined ? 'saved' : 'draft';
    const policy = body.policy === undefined ? storedPolicy(row) : draftPolicy(services.secrets, row, body.policy);
    const d = decideDestination(compilePolicy(policy), dest);
    const { enforcedBy } = enforcementOf(row, services.network);
    const caveat = backendCaveat(row.backend, dest, d);
    return { allowed: d.allowed, basis, rule: d.rule, kind: d.kind, entry: d.entry ?? null, enforcedBy, caveat, destination: dest };
  }),
};
