// The connection test's input and answer: schema-only, for the contract and the browser.
import { z } from 'zod';
import { SANDBOX_BACKENDS } from '../config/schema';

export const connectionTestInput = z.strictObject({
  backend: z.enum(SANDBOX_BACKENDS, { error: 'The backend is docker, e2b or cube.' }),
  config: z.record(z.string(), z.unknown()),
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'Not a config id.')
    .optional(),
});
export type ConnectionTestInput = z.output<typeof connectionTestInput>;

const probeOut = z.object({
  name: z.string(),
  status: z.enum(['pass', 'fail', 'skipped']),
  reason: z.string().optional(),
  latencyMs: z.number(),
  detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
});
export const connectionTestOut = z.object({ probes: z.array(probeOut) });
