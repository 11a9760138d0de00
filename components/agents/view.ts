/**
 * The agents API's shapes, taken from the contracts' schemas (type-only: nothing of the server is
 * bundled), and the small formatting helpers of the agents pages.
 */
import type { z } from 'zod';
import type { agentOut, defaultsOut, explainOut, gatewaySkillsOut, previewOut } from '@/lib/api/agent-schemas';
import type { agentSummariesOut, allowlistMatrixOut, budgetPlanOut, skillAgentsOut } from '@/lib/api/agent-view-schemas';

export type AgentView = z.output<typeof agentOut>;
export type DefaultsView = z.output<typeof defaultsOut>;
export type AgentSummaries = z.output<typeof agentSummariesOut>;
export type AgentSummary = AgentSummaries['items'][number];
export type MatrixView = z.output<typeof allowlistMatrixOut>;
export type MatrixAgent = MatrixView['agents'][number];
export type MatrixSkill = MatrixView['skills'][number];
export type SkillAgentsView = z.output<typeof skillAgentsOut>;
export type BudgetPlan = z.output<typeof budgetPlanOut>;
export type ExplainView = z.output<typeof explainOut>;
export type SkillTraceView = ExplainView['traces'][number];
export type GatewaySkills = z.output<typeof gatewaySkillsOut>;
export type PreviewView = z.output<typeof previewOut>;
export type PreviewItem = PreviewView['items'][number];

export type Scope = AgentSummary['scope'];

export function scopeLabel(scope: Scope, defaults: { unrestricted: boolean; skills: string[] | null }): string {
  if (scope.kind === 'own') return `own list · ${scope.count}`;
  if (scope.kind === 'none') return 'no skills';
  return defaults.unrestricted ? 'inherits defaults (unrestricted)' : `inherits defaults · ${defaults.skills?.length ?? 0}`;
}

export const STEP_LABELS: Record<SkillTraceView['steps'][number]['step'], string> = {
  found: 'Found',
  copy: 'Winning copy',
  usable: 'Usable',
  eligible: 'Eligible',
  installed: 'Installed',
  allowed: 'Allowed',
  enabled: 'Enabled',
  'model-invocable': 'Model-invocable',
  prompt: 'In the prompt',
  policy: 'Exec policy',
};

export const fmt = (n: number) => n.toLocaleString('en-US');

/** "1,234 chars · ~309 tokens" */
export const costText = (chars: number, tokens: number) => `${fmt(chars)} chars · ~${fmt(tokens)} tokens`;

export const signed = (n: number) => (n > 0 ? `+${fmt(n)}` : n < 0 ? `−${fmt(-n)}` : '±0');
