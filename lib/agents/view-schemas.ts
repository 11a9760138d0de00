/**
 * Inputs of the console's aggregated agent reads (the list's summaries, the matrix, a skill's agents,
 * the budget planner). Schema-only: the browser imports it.
 */
import { z } from 'zod';
import { MAX_LIST, MAX_SKILL_NAME } from './schema';

export const skillAgentsQuery = z.strictObject({ name: z.string().min(1).max(MAX_SKILL_NAME) });

/** A budget to try in the planner; absent fields keep the agent's own. Query strings arrive as text. */
export const budgetPlanQuery = z.strictObject({
  maxSkills: z.coerce.number().int().min(1, 'maxSkills must be at least 1.').max(MAX_LIST).optional(),
  maxChars: z.coerce.number().int().min(1, 'maxChars must be at least 1.').max(1_000_000).optional(),
});
export type BudgetPlanQuery = z.infer<typeof budgetPlanQuery>;
