// Response schemas of the console's aggregated agent reads.
import { z } from 'zod';
import { agentOut, defaultsOut } from './agent-schemas';

const names = z.array(z.string());
const budgetOut = z.object({ maxSkills: z.number().int(), maxChars: z.number().int() });
const targetOut = z.object({ kind: z.enum(['host', 'sandbox']), configId: z.string().nullable(), label: z.string() });
const scopeOut = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('inherits') }),
    z.object({ kind: z.literal('own'), count: z.number().int() }),
    z.object({ kind: z.literal('none') }),
  ])
  .describe('inherits: follows the defaults; own: its own list of `count` names; none: its own empty list');
const stepName = z.enum(['found', 'copy', 'usable', 'eligible', 'installed', 'allowed', 'enabled', 'model-invocable', 'prompt']);

export const agentSummariesOut = z.object({
  defaults: defaultsOut,
  builtinBudget: budgetOut.describe('The budget when neither the agent nor the defaults set one'),
  catalogSkills: z.number().int(),
  items: z.array(
    agentOut.extend({
      scope: scopeOut,
      denyCount: z.number().int(),
      target: targetOut,
      effective: z.object({
        count: z.number().int().describe('Skills in the prompt'),
        chars: z.number().int(),
        tokens: z.number().int(),
        form: z.enum(['full', 'compact']),
        truncated: z.boolean(),
        version: z.string(),
      }),
    }),
  ),
});

export const allowlistMatrixOut = z.object({
  defaults: z.object({ skills: names.nullable(), unrestricted: z.boolean(), revision: z.number().int() }),
  skills: z.array(z.object({ name: z.string(), source: z.string(), status: z.string(), description: z.string() })),
  agents: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      revision: z.number().int(),
      skills: names.nullable().describe('null: inherits the defaults'),
      inheritsDefaults: z.boolean(),
      denySkills: names,
    }),
  ),
});

export const skillAgentsOut = z.object({
  skill: z.string(),
  usable: z.number().int().describe('Agents that get the skill'),
  items: z.array(
    z.object({
      agentId: z.string(),
      agentName: z.string(),
      scope: scopeOut,
      effective: z.boolean(),
      excluded: z.boolean().describe('The allowlist (or the deny list) keeps it out'),
      failedAt: stepName.nullable(),
      rule: z.string().describe('What the list says about the skill'),
      reason: z.string().nullable().describe('The step that keeps it out, in words'),
    }),
  ),
});

export const budgetPlanOut = z.object({
  agentId: z.string(),
  target: targetOut,
  agentBudget: budgetOut.describe('The budget the agent has now (its own, else the defaults, else the built-in one)'),
  ownBudget: budgetOut.nullable(),
  budget: budgetOut.describe('The budget this plan applies'),
  trying: z.boolean().describe('The plan applies a budget sent in the query'),
  candidates: z.number().int().describe('Skills that pass every step before the prompt'),
  fullChars: z.number().int().describe('The catalog of every candidate in the full form'),
  compactChars: z.number().int().describe('The same in the compact form (no descriptions)'),
  prompt: z.object({
    text: z.string(),
    chars: z.number().int(),
    tokens: z.number().int(),
    form: z.enum(['full', 'compact']),
    truncated: z.boolean(),
    included: names,
    cut: names,
  }),
  skills: z.array(
    z.object({
      name: z.string(),
      full: z.number().int().describe('Characters its block adds in the full form'),
      compact: z.number().int().describe('Characters its block adds in the compact form'),
      state: z.enum(['full', 'compact', 'cut-count', 'cut-chars']),
    }),
  ),
});
