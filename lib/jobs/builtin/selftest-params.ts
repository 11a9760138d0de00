import { z } from 'zod';

/** The pipeline self-test's params; the console's dialog validates with the same schema. */
export const selftestParams = z.strictObject({
  lines: z.number().int().min(1).max(1_000_000).default(1000),
  /** Lines per second; 0 writes as fast as the pipe takes them. */
  ratePerSecond: z.number().int().min(0).max(1_000_000).default(0),
});
export type SelftestParams = z.infer<typeof selftestParams>;
