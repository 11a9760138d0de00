// Agents as the API answers them, for component tests; each test parses them with the route's own
// output schema, so a fixture that drifts from the contract fails there.

/** An agent record as GET /api/v1/agents lists it: inherits the defaults, no deny list, no budget. */
export function agentRecord(id: string, name: string, opts: { at?: string; sandboxConfigId?: string | null } = {}) {
  const at = opts.at ?? '2026-12-01T10:00:00.000Z';
  return {
    id,
    name,
    description: '',
    sandboxConfigId: opts.sandboxConfigId ?? null,
    skills: null,
    inheritsDefaults: true,
    denySkills: [],
    budget: null,
    riskProfile: null,
    policyOverrides: null,
    revision: 1,
    warnings: [],
    createdAt: at,
    createdBy: 'admin@example.test',
    updatedAt: at,
    updatedBy: 'admin@example.test',
  };
}

/** One row of GET /api/v1/agents/allowlists/summary: an agent on this host that sees `skills` skills. */
export function agentSummary(id: string, name: string, skills: number) {
  return {
    ...agentRecord(id, name),
    scope: { kind: 'inherits' },
    denyCount: 0,
    target: { kind: 'host', configId: null, label: 'this host' },
    effective: { count: skills, chars: skills * 200, tokens: skills * 50, form: 'full', truncated: false, version: 'v1' },
  };
}

/** The whole summary answer around `items`: unrestricted defaults, the built-in budget. */
export function agentSummaries(items: ReturnType<typeof agentSummary>[]) {
  return {
    defaults: { skills: null, unrestricted: true, budget: null, revision: 0, warnings: [], updatedAt: null, updatedBy: null },
    builtinBudget: { maxSkills: 150, maxChars: 30000 },
    catalogSkills: 12,
    items,
  };
}
