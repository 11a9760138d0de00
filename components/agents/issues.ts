import type { z } from 'zod';

/** The first message of each top-level field of a failed parse: validation as you type from the server's schema. */
export function fieldIssues(schema: z.ZodType, value: unknown): Record<string, string> {
  const r = schema.safeParse(value);
  if (r.success) return {};
  const out: Record<string, string> = {};
  for (const i of r.error.issues) {
    const key = String(i.path[0] ?? '');
    out[key] ??= i.message;
  }
  return out;
}
