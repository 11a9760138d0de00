// The audit log's list filter: schema-only, for the contract and the browser.
import { z } from 'zod';

export const auditQuery = z.strictObject({
  actor: z.string().trim().max(200).optional(),
  action: z.string().trim().max(100).optional(),
  target: z.string().trim().max(200).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /** Keyset pagination: rows with an id below this one. */
  before: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
});
export type AuditQuery = z.infer<typeof auditQuery>;
